//! An in-process event bus: modules publish what happened; subscribers (the MCP server,
//! hooks, tests) receive it on their own channel. Publishing never blocks and never fails;
//! a subscriber that went away is dropped.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};

use serde::Serialize;

/// Something that happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A consolidation run finished and its results are stored.
    ConsolidationCompleted {
        /// The run.
        run_id: String,
        /// `project` or `user`.
        scope: String,
        /// Memories scanned.
        memories_processed: usize,
        /// Clusters found.
        clusters_formed: usize,
        /// Supersessions found.
        supersessions_detected: usize,
        /// Edges in the graph.
        edges_extracted: usize,
        /// Tier changes.
        tier_transitions: usize,
    },
}

/// Fans events out to subscribers.
#[derive(Debug, Default)]
pub struct EventBus {
    subscribers: Mutex<Vec<Sender<Event>>>,
}

impl EventBus {
    /// A receiver of every event published from now on.
    pub fn subscribe(&self) -> Receiver<Event> {
        let (tx, rx) = channel();
        if let Ok(mut subs) = self.subscribers.lock() {
            subs.push(tx);
        }
        rx
    }

    /// Sends an event to every live subscriber.
    pub fn publish(&self, event: Event) {
        tracing::debug!(?event, "event");
        if let Ok(mut subs) = self.subscribers.lock() {
            subs.retain(|s| s.send(event.clone()).is_ok());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscribers_receive_and_departed_ones_are_dropped() {
        let bus = EventBus::default();
        let a = bus.subscribe();
        let b = bus.subscribe();
        drop(b);
        let e = Event::ConsolidationCompleted {
            run_id: "r".into(),
            scope: "project".into(),
            memories_processed: 1,
            clusters_formed: 0,
            supersessions_detected: 0,
            edges_extracted: 0,
            tier_transitions: 0,
        };
        bus.publish(e.clone());
        assert_eq!(a.try_recv().ok(), Some(e));
        assert_eq!(bus.subscribers.lock().map(|s| s.len()).unwrap_or(0), 1);
    }
}

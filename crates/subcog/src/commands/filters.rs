//! Filter flags shared by `recall`, `list` and `export`.

use clap::Args;
use subcog_core::model::{Domain, Namespace, Status, Tier, normalize_tags};
use subcog_core::store::MemoryFilter;

use crate::command_error::CommandError;

/// Narrow the memories considered.
#[derive(Debug, Clone, Default, Args)]
pub struct FilterArgs {
    /// Only these namespaces (repeat or comma-separate)
    #[arg(short = 'n', long = "namespace", value_name = "NS", value_delimiter = ',')]
    pub namespaces: Vec<String>,
    /// Only memories with all these tags (repeat or comma-separate)
    #[arg(short = 't', long = "tag", value_name = "TAG", value_delimiter = ',')]
    pub tags: Vec<String>,
    /// Only these domains: project, user, org
    #[arg(long = "domain", value_name = "DOMAIN", value_delimiter = ',')]
    pub domains: Vec<Domain>,
    /// Created at or after (2023-05-08, 2023-05-08 14:30, RFC 3339, or "last week",
    /// "yesterday", "in May", "3 days ago")
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// Created before (same formats as --since)
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,
    /// Only memories about this period by event time: a date in the text ("yesterday" in a
    /// memory of 8 May is 7 May) overlaps it, or none does and it was captured in it
    /// ("last week", "in May 2023", "2023-05-07")
    #[arg(long, value_name = "PERIOD")]
    pub happened: Option<String>,
    /// Only these statuses: active, superseded, archived, deleted (default: recall active and
    /// superseded, list all but deleted, export all)
    #[arg(long = "status", value_name = "STATUS", value_delimiter = ',')]
    pub statuses: Vec<Status>,
    /// Only these tiers: hot, warm, cold, archived
    #[arg(long = "tier", value_name = "TIER", value_delimiter = ',')]
    pub tiers: Vec<Tier>,
}

impl FilterArgs {
    /// The library filter these flags describe; natural dates resolve against `now`.
    pub fn to_filter(&self, now: chrono::DateTime<chrono::Utc>) -> Result<MemoryFilter, CommandError> {
        use subcog_core::temporal::{Bound, bound};
        Ok(MemoryFilter {
            namespaces: self
                .namespaces
                .iter()
                .map(|n| Namespace::parse(n))
                .collect::<Result<_, _>>()?,
            tags: normalize_tags(&self.tags)?,
            domains: self.domains.clone(),
            statuses: self.statuses.clone(),
            tiers: self.tiers.clone(),
            since: self.since.as_deref().map(|s| bound(s, now, Bound::Start)).transpose()?,
            until: self.until.as_deref().map(|u| bound(u, now, Bound::End)).transpose()?,
            happened: self
                .happened
                .as_deref()
                .map(|p| subcog_core::temporal::period(p, now))
                .transpose()?,
        })
    }
}

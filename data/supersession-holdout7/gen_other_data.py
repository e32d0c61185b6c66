# -*- coding: utf-8 -*-
"""Hand-written chains and filler notes for holdout7 (Cobbleway).

CHAINS: (namespace, [A, B, C]) in time order; B supersedes A, C supersedes B.
FILLER: (namespace, text); nothing supersedes these.
Written by hand on 2026-11-28.
"""

CHAINS = [
    # k01 value change: heartbeat interval
    ("decisions", [
        "gate-bridge expects a heartbeat from each GateBox every 60 seconds.",
        "GateBox heartbeat interval is 30 s; gate-bridge marks a unit offline after 3 missed beats.",
        "Decision: GateBoxes ping gate-bridge every 15s, offline after 4 missed heartbeats.",
    ]),
    # k02 tool replacement: status page
    ("decisions", [
        "Our customer-facing status page is hosted on Atlassian Statuspage.",
        "status.cobbleway.com is served by Instatus.",
        "The public status page runs on Better Stack, fed by the same uptime monitors.",
    ]),
    # k03 runtime version
    ("context", [
        "tenant-api runs on Node 16.",
        "tenant-api is on Node 18 LTS.",
        "tenant-api Dockerfile: FROM node:20-alpine",
    ]),
    # k04 owner
    ("context", [
        "auction-house is owned by Marek Dudek.",
        "Beatriz Lopes owns auction-house \u2014 tech lead and on-call escalation.",
        "Point of contact for anything in auction-house: Yusuf Demir.",
    ]),
    # k05 corrected learning (twice)
    ("learnings", [
        "Learned: lock-sync integration tests flake because of clock skew on the CI runners.",
        "lock-sync flakiness isn't clock skew, it's tests sharing one fixture database and stepping on each other.",
        "Root cause of the lock-sync test flakes: the BLE simulator reuses port 47001 between test files. With the simulator isolated, the shared fixtures turned out to be harmless.",
    ]),
    # k06 personal fact
    ("context", [
        "I keep Wednesdays meeting-free for deep work.",
        "My no-meeting day is Thursday.",
        "Focus time for me is Friday mornings, calendar blocked until 13:00.",
    ]),
    # k07 progress
    ("progress", [
        "Progress: the new kiosk UI is live at 5 pilot sites.",
        "New kiosk UI rolled out to 30 of 64 sites.",
        "New kiosk UI is on every site; the old UI build was deleted from the kiosk image.",
    ]),
    # k08 value change: grace period
    ("decisions", [
        "Grace period before a late fee: 5 days after the due date.",
        "Late fees kick in 7 days after rent is due.",
        "Decision: a 10-day grace period applies before any late fee.",
    ]),
    # k09 tool replacement: feature flags
    ("decisions", [
        "Feature flags are a YAML file in each repo, read at startup.",
        "Feature flags are managed in LaunchDarkly.",
        "Flags are served by our self-hosted Unleash (unleash.cobbleway.internal).",
    ]),
    # k10 schedule
    ("patterns", [
        "Desk releases go out every other Tuesday.",
        "Desk ships weekly, Tuesdays after standup.",
        "Desk deploys continuously from main, several times a day.",
    ]),
    # k11 blocker chain
    ("blockers", [
        "Blocked: insurance-quote can't go live, the underwriter's sandbox has been down since Monday.",
        "Underwriter sandbox is back, but insurance-quote is still blocked waiting for production credentials from them.",
        "insurance-quote is live in production and quoting protection plans for Keystone tenants.",
    ]),
    # k12 value change: thumbnail size
    ("decisions", [
        "photo-vault thumbnails are 200px on the long edge.",
        "Thumbnail size in photo-vault: 320 px long edge, WebP.",
        "photo-vault generates 480px WebP thumbnails for the retina Desk screens.",
    ]),
]

FILLER = [
    # decisions
    ("decisions", "Decision: unit sizes are stored in square feet for UK facilities and square metres elsewhere; Desk converts for display."),
    ("decisions", "Decision (ADR-019): tenant-api never returns a full gate PIN, only the last two digits."),
    ("decisions", "Decision: auction-house only lists units whose contents have been photographed into photo-vault."),
    ("decisions", "We decided every GateBox gets a unique device certificate at the factory. No shared secrets in the fleet."),
    ("decisions", "Decision: report-forge PDFs are generated in the operator's locale, not the viewer's."),
    ("decisions", "Decision: rate-engine never lowers a street rate by more than 15% in one step."),
    ("decisions", "Decision: Desk keeps a full audit trail of rent adjustments \u2014 who, when, old and new value."),
    ("decisions", "Decision: notice-mailer sends nothing between 21:00 and 08:00 facility local time."),
    ("decisions", "Decision: each squad owns its own Datadog monitors, platform only owns the cluster-level ones."),
    ("decisions", "Decision: tenant-api error responses follow RFC 9457 (application/problem+json)."),
    ("decisions", "Decision: the Key app works offline for showing the digital gate key; everything else needs a connection."),
    ("decisions", "Decision: no customer data in Slack. Paste Desk links, not screenshots with tenant names on them."),
    ("decisions", "Decision: lock-sync firmware images are signed with a key held in an HSM, two-person rule for every signing."),
    ("decisions", "Decision: kiosks only offer units that are available today; reservations for later dates go through the Key app."),
    ("decisions", "Decision: all new tables in unit-ledger get created_at / updated_at columns with database defaults."),
    ("decisions", "Decision: insurance-quote caches underwriter quotes for 10 minutes per unit size."),
    ("decisions", "Decision: camera-relay never streams live video to the Key app, tenants only ever see stills."),
    ("decisions", "Decision: id-check results are kept for 6 years per legal's retention schedule, then deleted."),
    ("decisions", "Decision: access-log events are written once and never updated; corrections are new events."),
    ("decisions", "ADR-027: occupancy-feed is the only writer of unit status. Desk and Key read it, they never write it."),
    ("decisions", "Decision: only Owners in Desk can export tenant personal data."),
    ("decisions", "Decision: tenant-api pagination is cursor based everywhere, no offset params."),
    ("decisions", "Decision: by default a tenant's rent due date is the monthly anniversary of their move-in date."),
    ("decisions", "Decision: we never store full card numbers anywhere, only the processor's tokens."),
    ("decisions", "Decision: Desk supports Chrome, Edge and Safari (last two versions each); Firefox is best effort."),
    ("decisions", "We have decide that drive-up units are always priced by rate-engine separately from indoor units, they have very different demand."),
    ("decisions", "Decision: GateBox falls back to the last synced PIN list when it can't reach gate-bridge, so tenants still get in during outages."),
    ("decisions", "Decision: operator staff accounts in Desk are per person, never shared logins at the counter."),

    # learnings
    ("learnings", "Learned: GateBox's relay clicks twice on some barrier models. Harmless, but tenants report it as a fault."),
    ("learnings", "TIL RDS Performance Insights keeps 7 days of history for free."),
    ("learnings", "Learned: operators type unit numbers with and without leading zeroes (A07 vs A7), search has to match both."),
    ("learnings", "Learned: Flutter's default ImageCache is too small for the facility photo gallery, Key sets a bigger one at startup."),
    ("learnings", "Learned: Keystone's older sites have barrier motors that need a 2 second relay pulse, not 500ms."),
    ("learnings", "TIL insurance premium tax on protection plans is calculated by insurance-quote itself, not by the payment provider."),
    ("learnings", "Learned: EKS node upgrades go much smoother when gate-bridge has a PodDisruptionBudget set."),
    ("learnings", "Learned: facilities near universities churn hard every June, rate-engine should expect it and not panic-discount."),
    ("learnings", "TIL the BLE range of our smart locks drops a lot behind steel roller doors, to about 2 metres."),
    ("learnings", "Learned: Safari on iPadOS caches Desk's service worker aggressively; a hard reload isn't always enough."),
    ("learnings", "Learned: report-forge queries time out when an operator picks 'all facilities' over more than 2 years."),
    ("learnings", "Learned: Keystone's finance team reads the monthly invoice PDF on their phones, so the layout matters more than we thought."),
    ("learnings", "TIL DynamoDB on-demand is cheaper than provisioned for access-log at our traffic shape."),
    ("learnings", "Learned: the staging Stripe account must have the same tax settings as prod, otherwise the invoice tests lie."),
    ("learnings", "Learned: barrier gates at coastal sites corrode fast; GateBox enclosures there need the IP66 variant."),
    ("learnings", "TIL kiosk screens go to sleep after 10 min through the OS power settings unless the kiosk profile disables it."),
    ("learnings", "Learned: lien auction law differs per country, so auction-house is UK-only until legal reviews Portugal and Poland."),
    ("learnings", "Learned: most 'gate won't open' tickets are tenants with overdue rent whose access was suspended correctly."),
    ("learnings", "TIL GateBox keeps its logs on the device for only 48 hours, pull them fast after an incident."),
    ("learnings", "Learned: auction buyers mostly browse on mobile on Sunday evenings."),
    ("learnings", "Learned: the Bolta locks report battery as a percentage, but it's really just four voltage bands."),
    ("learnings", "Learned: Desk's bundle grew 40% when the charts library went in; it has to be lazy-loaded."),
    ("learnings", "Learned: Magazyn Plus tenants expect invoices with NIP numbers, so Desk needs a tax ID field per tenant."),
    ("learnings", "Learned: when a GateBox loses power mid-command the barrier can stay half open, the limit switch state is the only truth."),

    # patterns
    ("patterns", "Pattern: every gate command carries an expires_at; GateBox drops commands that arrive late."),
    ("patterns", "pattern: wrap external vendor calls in a circuit breaker, per-vendor config in config/vendors.yaml"),
    ("patterns", "All money calculations in rate-engine use BigDecimal with HALF_EVEN rounding."),
    ("patterns", "Pattern: Desk forms show server side validation errors inline, keyed by the field path."),
    ("patterns", "Pattern: SQL queries longer than 50 lines go in .sql files, not inline strings."),
    ("patterns", "Naming: S3 buckets are cw-<env>-<service>-<purpose>."),
    ("patterns", "Pattern: idempotency keys on every POST endpoint in tenant-api that moves money."),
    ("patterns", "Pattern: every Flutter screen in Key has a golden test at the small-phone size."),
    ("patterns", "Use UUIDv7 for new primary keys; older tables keep their bigint ids."),
    ("patterns", "Pattern: background jobs log job_id and facility_id on every line."),
    ("patterns", "Pattern: database migrations get reviewed by someone from the platform squad."),
    ("patterns", "pattern: config is read once at startup into a typed settings object, never os.environ deep inside the code"),
    ("patterns", "Pattern: operator-facing error messages in Desk come from one catalogue so support can search them."),
    ("patterns", "Pattern: gate-bridge handlers never block on the database; writes go through an outbox table."),
    ("patterns", "Every public endpoint gets a contract test before it's announced to partners."),
    ("patterns", "Pattern: dates shown to tenants are in the facility's local timezone, with the zone labelled."),
    ("patterns", "Pattern: when a vendor webhook arrives, store the raw payload first, process it second."),
    ("patterns", "Pattern: accessibility labels on every tappable element in Key, the a11y lint fails the build otherwise."),
    ("patterns", "Pattern: secrets never go in committed .env files; pre-commit runs gitleaks on every repo."),
    ("patterns", "Pattern: every Desk page has a data-testid on its main heading for the e2e tests."),
    ("patterns", "Pattern: Flutter widgets that show money take an amount in minor units plus a currency code."),
    ("patterns", "Pattern: vendor SDKs are wrapped behind our own interface, so a vendor can be swapped without touching callers."),
    ("patterns", "Pattern: any script that touches prod data runs from a reviewed PR in the ops-scripts repo, never from a laptop."),
    ("patterns", "Pattern: for GateBox protocol changes, gate-bridge must accept both the old and the new message shape for one full firmware cycle."),

    # context
    ("context", "Keystone Storage is our largest customer by unit count."),
    ("context", "BoxHaven operates 22 sites across the Midlands and South Yorkshire."),
    ("context", "Lockwell Self Store (9 sites around Porto and Braga) is our first Portuguese customer."),
    ("context", "Magazyn Plus in Krak\u00f3w is piloting Desk at 3 sites."),
    ("context", "The hardware lab in Porto has two GateBox test barriers and a smart lock wall."),
    ("context", "Fiona McTaggart is our compliance lead (PCI, SOC 2, GDPR)."),
    ("context", "Callum Reid runs IT for the offices: laptops, badges, Wi-Fi."),
    ("context", "Sunita Rao is the product manager for Desk."),
    ("context", "Jonas Ekdahl is the hardware lead for GateBox and the smart locks."),
    ("context", "Tomasz Wielgosz is the staff engineer on rate-engine."),
    ("context", "Hannah Liesegang is the QA lead."),
    ("context", "Beatriz Lopes leads the Porto engineering team."),
    ("context", "Yusuf Demir joined as a backend engineer in the billing squad."),
    ("context", "Customer facilities are mostly unstaffed at night, so gates have to work with nobody on site."),
    ("context", "Operators call unit types 'lockers', 'units' and 'drive-ups'; in Desk everything is a 'unit'."),
    ("context", "Cobbleway is about 60 people, 28 of them in engineering."),
    ("context", "Production incidents get a blameless postmortem within 5 working days."),
    ("context", "Legal is outsourced to Harrowgate & Finch, contact them through Fiona."),
    ("context", "The on-site kiosks are Elo touchscreens with Epson receipt printers."),
    ("context", "Smart locks are made by our partner Bolta; lock-sync speaks their BLE protocol."),
    ("context", "Support escalates to the on-call engineer only for P1 and P2."),
    ("context", "The gate squad is five engineers split between Leeds and Porto."),
    ("context", "Tenant-facing copy is written in plain English, roughly reading age 12."),
    ("context", "For Lockwell sites the invoices must be in portuguese and show the NIF of tenant, this is legal requirement there."),

    # blockers (still open)
    ("blockers", "Blocked: cant reproduce the Braga gate double-open without their barrier model, asked Lockwell for a video."),
    ("blockers", "Blocked: report-forge's VAT breakdown for Poland waits on the accountant's answer about reverse charge."),
    ("blockers", "Blocked: COB-881 needs a decision from Sunita on whether drive-up units show on the Key map."),
    ("blockers", "Blocked: the new barrier model from Came isn't in the GateBox driver list; Jonas is waiting for their protocol spec."),
    ("blockers", "Blocked: Magazyn Plus can't go beyond 3 pilot sites until their Polish-language invoices are approved by their accountant."),
    ("blockers", "Blocked: can't finish the DR runbook until finance tells us what RTO they will sign off on."),

    # progress
    ("progress", "Progress: Key app dark mode \u2014 icons and colours done, charts pending."),
    ("progress", "Progress: Desk bulk messaging to tenants is in beta with 4 operators."),
    ("progress", "Progress: first draft of the GateBox v4 schematic reviewed."),
    ("progress", "Shipped: tenants can download their rental agreement as a PDF from Key."),
    ("progress", "Progress: lien auction photo checklist done in auction-house, QA next week."),
    ("progress", "Progress: SOC 2 Type I report received; the Type II observation window runs until March."),
    ("progress", "Shipped: Desk shows a red badge on units with overdue rent."),
    ("progress", "Progress: Bolta lock v2 BLE protocol support merged in lock-sync, behind a flag."),

    # first-person preferences (unrelated to the personal-fact pairs)
    ("context", "I prefer review comments as suggestions I can apply, not paragraphs."),
    ("context", "I'd rather be paged by phone call than by SMS for P1s."),
    ("context", "I like to pair on anything touching gate-bridge's state machine."),
    ("context", "I take my coffee black, for whoever does the office order."),
    ("context", "I'm happy to be first reviewer on Flutter PRs."),
    ("context", "I prefer a short Loom over a long Slack thread for demos."),
]

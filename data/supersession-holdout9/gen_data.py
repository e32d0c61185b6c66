# -*- coding: utf-8 -*-
"""Hand-written notes for holdout9 (Harrowmere Water, Digital Services team).

All organisations, people, places and internal service names are invented.
Each pair tuple: (kind, namespace, domain, older, newer).
"""

SUPERSEDES_KINDS = ("replacement", "value-change", "version", "correction",
                    "resolved-blocker", "personal-fact")
NOT_KINDS = ("addition", "kept", "rejected-proposal", "different-subject",
             "part-change", "refinement", "unrelated-with-marker")

PAIRS = []


def P(kind, ns, domain, older, newer):
    PAIRS.append((kind, ns, domain, older, newer))


# ---------------------------------------------------------------- replacement (35)
R = "replacement"
P(R, "decisions", "notify",
  "Decision: outage SMS from notifyr go out through Twilio, one alphanumeric sender id HARROWWTR for all zones.",
  "notifyr outbound SMS is sent over Vonage since the Q3 contract; the twilio account gets closed at month end (DS-1688)")
P(R, "context", "scada",
  "tidewatch reads tag values from the OSIsoft PI historian over PI Web API",
  "tidewatch gets tag values straight out of flowvault (timescale). PI Web API calls were ripped out in !812.")
P(R, "decisions", "ci",
  "all repos build on Jenkins at jenkins.harrowmere.internal, one freestyle job per service",
  "CI for every DS repo runs as GitLab CI pipelines. jenkins VM was shut down on 14 Feb and its disk archived.")
P(R, "context", "billing",
  "card payments in ledgerpool are handled by Paybridge hosted checkout page",
  "ledgerpool card payments go through Stripe Checkout as of the April release (DS-1422), webhooks on /pay/stripe")
P(R, "patterns", "crew",
  "crewdesk pushes new work orders to crew tablets with Firebase Cloud Messaging",
  "work-order push to tablets = Azure Notification Hubs, one hub per environment. FCM server keys revoked.")
P(R, "context", "gis",
  "gisbridge pulls water main layers every night from the MapInfo TAB export on the S: drive",
  "source of truth for pipe layers in gisbridge is the ArcGIS Enterprise feature service run by the GIS team; the MapInfo share is a read-only archive")
P(R, "decisions", "outage-map",
  "outage-map basemap tiles come from Mapbox (account ds-harrowmere)",
  "Decision: outage-map basemap is OpenStreetMap tiles served by our own tileserver-gl on AKS. reason is cost, the Mapbox bill was ~900/month on burst days.")
P(R, "context", "observability",
  "crashes and errors from the meterline app are reported to Bugsnag",
  "meterline crash + error reporting lives in Sentry (project meterline-android). bugsnag subscription lapsed in June and nobody renewed it")
P(R, "decisions", "oncall",
  "on-call paging for Digital Services is done with OpsGenie",
  "DS on-call gets paged by PagerDuty, escalation policy ds-primary.")
P(R, "context", "leak",
  "drip-sense acoustic loggers are supplied by Aquavox, data pulled from their portal",
  "leak loggers in Northfield and Copperhill are Sonara SL4 units since the 2025 tender, drip-sense ingests their hourly CSV drops")
P(R, "patterns", "infra",
  "azure infra is provisioned with ARM templates that live in the infra-arm repo",
  "All Azure infra is Terraform (repo infra-tf), state in storage account dsstate01. infra-arm repo archived.")
P(R, "context", "auth",
  "staff log in to crewdesk via the on-prem ADFS farm",
  "crewdesk staff sign-in: Entra ID over OIDC, app registration crewdesk-prod. The ADFS farm was decommisioned in November.")
P(R, "decisions", "metering",
  "meterhub buffers AMI reads in RabbitMQ before they are written to postgres",
  "AMI read ingest path: Kestrel head-end -> Kafka topic ami.reads.v1 -> meterhub consumer -> postgres.")
P(R, "context", "lab",
  "labtrack owner is Hanne Lindqvist",
  "Hanne moved over to the GIS team in spring, labtrack owner is Fatou Diallo")
P(R, "progress", "reporting",
  "reportly generates the monthly DWR compliance report as an Excel workbook with openpyxl",
  "reportly output for the DWR monthly is a PDF rendered by WeasyPrint, the regulator stopped accepting xlsx in their portal")
P(R, "learnings", "billing",
  "billing database is SQL Server 2016 on the old hyper-v host in the civic centre basement",
  "ledgerpool data sits in Azure Database for PostgreSQL flexible server (ledgerpool-pg-prod) since the cutover weekend")
P(R, "decisions", "scada",
  "SCADA overview screens for the control room are built in Ignition Perspective",
  "Decision: tidewatch overview screens are Grafana dashboards provisioned from git. Ignition licence not renewed, saves 14k/yr.")
P(R, "context", "notify",
  "customer e-mails (bills ready, planned works notices) are sent via SendGrid",
  "transactional mail for portal and ledgerpool leaves through Azure Communication Services Email, domain mail.harrowmerewater.gov verified with DKIM")
P(R, "patterns", "observability",
  "application logs are shipped to the ELK stack on vm-logs01",
  "logs: promtail -> Loki, query them in Grafana Explore. vm-logs01 is gone.")
P(R, "context", "infra",
  "service secrets are kept as GitLab CI variables in each project",
  "secrets get pulled at deploy time from Azure Key Vault kv-ds-prod by the CSI driver; CI variables only hold the deploy service principal")
P(R, "decisions", "pump",
  "pumpbrain uses CPLEX to solve the pump schedule optimisation",
  "pumpbrain solver is HiGHS (open source). paying for a commercial solver licence did not make sense for six stations")
P(R, "context", "metering",
  "meterline offline maps use the Google Maps SDK",
  "offline maps in meterline are rendered with MapLibre Native from mbtiles we publish off the tileserver")
P(R, "progress", "sewer",
  "sewerscope CCTV videos are stored on the NAS at Old Quay",
  "sewerscope clips land in blob container cctv-raw (cool tier). the Old Quay NAS is just a staging drop for van uploads, nothing kept there after 48h")
P(R, "context", "crew",
  "crewdesk product owner is Joel Brannigan from Operations",
  "PO for crewdesk is Kerstin Albers since the ops restructure in January")
P(R, "decisions", "portal",
  "feature flags for portal are managed in LaunchDarkly",
  "portal feature flags are in Unleash (self-hosted, namespace flags). LD contract ended in May.")
P(R, "learnings", "portal",
  "portal e2e tests are written in Cypress",
  "the portal end-to-end suite is Playwright, ~140 specs, runs in the test stage of the pipeline")
P(R, "context", "infra",
  "public DNS for harrowmerewater.gov is hosted on city IT's BIND servers",
  "harrowmerewater.gov zone is served by Azure DNS, delegated in March; city IT only keep the parent zone")
P(R, "patterns", "outage-map",
  "outage-map caches the incident geojson in memcached",
  "switched the outage-map incident geojson cache to Redis, key outage:geojson:v2 with ttl 30s")
P(R, "context", "team",
  "DS tickets are tracked in the Jira Cloud project DS",
  "DS tickets live as GitLab issues in the ds/board group. the jira project is read-only, kept for history")
P(R, "decisions", "metering",
  "meter vendor for all new installs: Kestrel Metering",
  "new installs get Brightwell BW-90 meters, the Kestrel contract was not extended after phase 1 (procurement ref PR-2291)")
P(R, "context", "team",
  "team chat is on Slack, #ds-general",
  "we moved DS chat to Teams, channel 'DS - General'; the slack workspace was shut down with the city M365 rollout")
P(R, "progress", "metering",
  "meterline android builds are distributed to crew devices through App Center",
  "meterline builds reach the crew devices via Intune managed Google Play; App Center is retired")
P(R, "context", "infra",
  "prod workloads run on the on-prem k3s cluster in the Greyford depot rack",
  "prod services run on AKS cluster aks-ds-prod in West Europe. the greyford rack holds only the SCADA DMZ jump boxes")
P(R, "decisions", "scada",
  "RTU telemetry reaches flowvault via a single Mosquitto broker on vm-mqtt01",
  "RTU telemetry broker is an EMQX cluster (3 nodes in scada-dmz); flowvault subscribes with shared subscriptions")
P(R, "context", "leak",
  "drip-sense leak alerts are sent to Tomasz by email",
  "drip-sense alert routing: PagerDuty service leak-analytics with its own rota")

# ---------------------------------------------------------------- value-change (30)
V = "value-change"
P(V, "decisions", "outage-map",
  "outage-map refreshes the incident feed every 60s",
  "outage-map incident feed poll interval: 15s (DS-1580, lots of complaints during the Copperhill burst)")
P(V, "context", "metering",
  "meterhub flags a read as suspect when consumption is above 3x the 90-day average",
  "suspect-read threshold in meterhub is 5x the 90 day avg. 3x produced too many false flags in summer when gardens are watered")
P(V, "patterns", "billing",
  "ledgerpool bill run starts at 02:00 on the 1st of the month",
  "bill run kicks off 22:00 on the last working day of the month so it is done before the lockbox file arrives")
P(V, "context", "leak",
  "drip-sense raises a leak alert when the noise level stays above 28 dB for 3 nights",
  "leak alert rule: above 24 dB on 2 consecutive nights (tuned against field dig results Q2)")
P(V, "decisions", "scada",
  "flowvault keeps raw 1s telemetry for 30 days, after that only aggregates",
  "raw 1-second telemetry retention in flowvault = 90 days, the regulator audit asked that we can show a full quarter")
P(V, "context", "notify",
  "notifyr rate limit is 20 SMS per second",
  "notifyr rate limit changed to 60 sms/s, agreed with the carrier in September")
P(V, "patterns", "ci",
  "pipelines fail if unit test coverage is below 60%",
  "coverage gate in GitLab CI is 75% for backend services")
P(V, "progress", "infra",
  "prod deploys happen Tuesdays and Thursdays at 10:00",
  "prod deploy window: Wednesday 13:00-15:00 only, agreed with the control room after the March incident")
P(V, "context", "scada",
  "tidewatch raises the Copperhill reservoir low level alarm at 2.0 m",
  "Copperhill reservoir low-level alarm set point is 2.6 m (ops request after the May drawdown)")
P(V, "decisions", "portal",
  "portal session timeout is 30 min",
  "portal sessions expire after 15 minutes idle, per city security baseline v3")
P(V, "context", "billing",
  "ledgerpool public API rate limit is 100 requests/min per key",
  "ledgerpool API keys get 300 req/min; the lockbox partner key gets 1000")
P(V, "context", "crew",
  "crewdesk auto-closes work orders 7 days after they are marked complete",
  "completed WOs in crewdesk auto-close after 48h unless a supervisor reopens them")
P(V, "patterns", "infra",
  "postgres backups run nightly and are kept 14 days",
  "pg backups: PITR enabled on all flexible servers, retention 35 days")
P(V, "context", "pump",
  "pumpbrain re-plans the pump schedule every 6 hours",
  "pumpbrain replanning cadence is hourly, the tariff feed is hourly anyway so it was wasteful to wait")
P(V, "decisions", "metering",
  "meterhub runs with 3 replicas in prod",
  "meterhub replicas: HPA min 6, max 12")
P(V, "context", "lab",
  "labtrack flags a turbidity result above 1.0 NTU",
  "turbidity flag level in labtrack is 0.5 NTU following the 2026 drinking water regulations")
P(V, "context", "infra",
  "monthly Azure budget alert fires at 8k EUR",
  "azure budget alert threshold 11k EUR/month (AKS + historian storage growth)")
P(V, "patterns", "notify",
  "notifyr retries a failed SMS 3 times",
  "failed SMS get 5 attempts with exponential backoff, capped at 10 min between tries")
P(V, "context", "outage-map",
  "outage-map shows incidents that affect 10 or more properties",
  "outage-map publishes an incident once 25+ properties are affected, smaller ones are handled by the call centre only")
P(V, "decisions", "metering",
  "AMI meters report once every 24h",
  "AMI interval: a read every 15 min, uploaded by the meter 4 times a day")
P(V, "context", "auth",
  "authgate access tokens live for 60 minutes",
  "authgate access token lifetime 10 min, refresh token 8h")
P(V, "progress", "sewer",
  "sewerscope max upload size is 2 GB per video",
  "sewerscope upload cap is 8 GB per clip because of the 4K camera on van 3")
P(V, "context", "billing",
  "payment reminder letter goes out 14 days after the due date",
  "the first payment reminder is sent on day 21 after due date, council decision of March 2026")
P(V, "learnings", "metering",
  "ami.reads.v1 topic has 12 partitions",
  "ami.reads.v1 runs with 48 partitions since the phase 2 meters landed")
P(V, "context", "portal",
  "portal availability SLO is 99.5%",
  "portal SLO target 99.9% monthly, error budget tracked on the grafana SLO dashboard")
P(V, "decisions", "scada",
  "tidewatch high pressure alarm for Northfield zone is 6.5 bar",
  "Northfield zone hi-pressure alarm limit: 7.2 bar")
P(V, "context", "crew",
  "burst main work orders must be dispatched within 60 min",
  "burst-main WOs have a 30 min dispatch SLA, clock starts when the call is logged")
P(V, "patterns", "gis",
  "gisbridge sync runs nightly at 01:00",
  "gisbridge sync cadence is every 4 hours (00, 04, 08, 12, 16, 20)")
P(V, "context", "oncall",
  "DS on-call rota is weekly with handover Monday 09:00",
  "on-call handover is Friday 16:00 and shifts are two weeks long")
P(V, "context", "billing",
  "ledgerpool postgres connection pool size is 20",
  "ledgerpool db pool max = 50 per pod, pgbouncer in transaction mode in front")

# ---------------------------------------------------------------- version (18)
VE = "version"
P(VE, "context", "scada", "tidewatch runs on Grafana 9.5",
  "tidewatch grafana is 11.2")
P(VE, "context", "metering", "meterhub is built on Java 11",
  "meterhub migrated to Java 21 (temurin base image)")
P(VE, "context", "billing", "ledgerpool database is Postgres 12",
  "ledgerpool-pg-prod engine version: 16")
P(VE, "patterns", "infra", "AKS cluster is on Kubernetes 1.26",
  "aks-ds-prod control plane and all nodepools at 1.30")
P(VE, "context", "portal", "portal frontend is built with Angular 14",
  "portal UI is Angular 18 with standalone components, no NgModules left")
P(VE, "context", "crew", "crewdesk backend runs on python 3.8",
  "crewdesk runs python 3.12, base image ds/python:3.12-slim")
P(VE, "progress", "infra", "terraform 1.3 is pinned in infra-tf",
  "infra-tf has required_version = \"~> 1.9\"")
P(VE, "context", "metering", "our Kafka cluster is version 2.8 with zookeeper",
  "kafka brokers are 3.7 in KRaft mode, zookeeper nodes deleted")
P(VE, "context", "metering", "meterline targets Android 11 (API 30)",
  "meterline targetSdk is 34, crew tablets are Samsung Tab Active5 on android 14")
P(VE, "context", "outage-map", "outage-map server runs on Node 16",
  "outage-map server moved up to node 22 LTS")
P(VE, "learnings", "outage-map", "outage cache is Redis 6 on Azure Cache standard",
  "outage cache redis is 7.2 on Azure Cache premium tier")
P(VE, "context", "gis", "gisbridge uses ArcGIS API for Python 1.9",
  "gisbridge pins arcgis==2.3.0 in requirements.txt")
P(VE, "context", "observability", "our self-hosted Sentry is on 22.x",
  "sentry.ds.internal is on 24.8.0")
P(VE, "context", "pump", "pumpbrain uses pandas 1.5",
  "pumpbrain requirements: pandas 2.2, numpy 2.0")
P(VE, "context", "lab", "labtrack is a Django 3.2 app",
  "labtrack is on Django 5.1, we jump to the 5.2 LTS next quarter")
P(VE, "context", "ci", "GitLab runners are on 15.x",
  "ci runners: gitlab-runner 17.3 with the kubernetes executor")
P(VE, "context", "scada", "EMQX cluster version is 4.4",
  "EMQX in scada-dmz runs 5.7.1")
P(VE, "decisions", "reporting", "reportly targets .NET 6",
  "reportly target framework net8.0")

# ---------------------------------------------------------------- correction (17)
C = "correction"
P(C, "learnings", "metering",
  "TIL the Kestrel head-end sends read timestamps in UTC",
  "turns out Kestrel head-end timestamps are local time without offset. the one hour shift of the March reads was exactly that")
P(C, "learnings", "metering",
  "Learned: duplicate AMI reads in meterhub come from Kafka redelivery after rebalances",
  "the duplicate AMI reads were the head-end re-sending the whole day file on retry, not kafka. consumer offsets were fine all along")
P(C, "learnings", "outage-map",
  "outage-map is slow because the incident geojson is too big",
  "profiling showed outage-map slowness = N+1 calls to crewdesk per incident. geojson is ~40kb and irrelevant")
P(C, "learnings", "leak",
  "the false leak alarms at Millrace are caused by traffic noise from the A-road",
  "Millrace false leak alarms come from the pump station VFD harmonics, confirmed by the Sonara field engineer. traffic hypothesis was wrong")
P(C, "learnings", "infra",
  "TIL Azure pg flexible server does not support pg_cron",
  "pg_cron works fine on flexible server, you have to allowlist it in azure.extensions and add it to shared_preload_libraries. my earlier TIL was wrong")
P(C, "learnings", "billing",
  "ledgerpool rounding differences come from float arithmetic in the tariff engine",
  "the rounding diffs on bills were banker's rounding in the PDF template; the tariff engine uses Decimal everywhere")
P(C, "learnings", "reporting",
  "the DWR submission portal accepts uploads of max 5 MB",
  "DWR upload limit is 25 MB. the 5MB error we saw was our own nginx client_max_body_size")
P(C, "learnings", "metering",
  "tablets lose meterline sync at Eastbank because of 4G dead spots",
  "meterline sync failures at Eastbank were the captive wifi portal at the works grabbing the tablets, 4G coverage there is ok")
P(C, "context", "pump",
  "pumpbrain saves an estimated 18% of pumping energy cost",
  "audited pumpbrain savings for FY25: 7.4% of pumping energy cost. the 18% was a simulation figure, should not have been quoted")
P(C, "learnings", "ci",
  "Learned: GitLab CI cache is per runner, so it's useless with the k8s executor",
  "gitlab cache on the k8s executor is shared between jobs once the distributed cache is configured, ours uses azure blob and works")
P(C, "learnings", "scada",
  "EMQX drops messages when an RTU reconnects",
  "the lost RTU messages on reconnect were QoS 0 publishes from the old RTU firmware. broker was not dropping anything")
P(C, "learnings", "scada",
  "tidewatch panel lag is caused by grafana rendering",
  "panel lag on tidewatch was the flowvault continuous aggregate refresh policy (every 10 min); grafana renders fine")
P(C, "learnings", "leak",
  "Sonara SL4 loggers report noise in dB(A)",
  "correction: Sonara SL4 values are raw dB, not A-weighted. thresholds in the drip-sense docs were fixed accordingly")
P(C, "context", "scada",
  "Copperhill reservoir capacity is 45 ML",
  "Copperhill reservoir holds 38 ML usable, 45 was the gross number including dead storage")
P(C, "learnings", "crew",
  "crewdesk geocoding errors happen because customer addresses lack postcodes",
  "bad crewdesk geocodes came from ~300 address points in Greyford with x/y swapped in the GIS layer. postcodes were a red herring")
P(C, "learnings", "notify",
  "TIL SMS delivery receipts from the carrier are unreliable",
  "delivery receipts are fine. our webhook returned 500 on receipts with unicode in them so they were discarded, fixed in !930")
P(C, "learnings", "lab",
  "labtrack import fails because the lab sends xlsx with merged cells",
  "labtrack import failures: the LIMS export is CSV in windows-1252; merged-cell theory was wrong, it was the encoding")

# ---------------------------------------------------------------- resolved-blocker (15)
B = "resolved-blocker"
P(B, "blockers", "metering",
  "Blocked: meterhub can't consume from ami.reads.v1 in prod, waiting on firewall rule FW-778 from city network team",
  "FW-778 done, meterhub is now consuming ami.reads.v1 in prod (since 11:40)")
P(B, "blockers", "billing",
  "Blocked: ledgerpool cutover rehearsal can't go ahead until finance signs off the 2026 tariff table",
  "2026 tariff table signed off by Luca for finance, rehearsal ran on Saturday")
P(B, "blockers", "sewer",
  "Blocked: sewerscope uploads from van 3 keep failing, 4G router firmware bug, vendor ticket open",
  "van 3 uploads going through fine after the router firmware 7.08 patch")
P(B, "blockers", "scada",
  "Blocked: tidewatch cannot reach flowvault from AKS, DMZ peering not approved yet",
  "peering scada-dmz <-> aks-ds-prod approved by the CISO, tidewatch queries flowvault ok")
P(B, "blockers", "outage-map",
  "Blocked: outage-map launch on hold pending the comms team's review of all public copy",
  "comms finished reviewing the outage-map copy; launch date is 3 Oct")
P(B, "blockers", "gis",
  "Blocked: gisbridge needs an ArcGIS named user licence and there are none spare",
  "GIS team freed a creator licence for svc-gisbridge, sync job is running")
P(B, "blockers", "metering",
  "Blocked: meterline release 4.2 stuck waiting for approval in Intune",
  "4.2 got approved in Intune this morning, rolling out to crew tablets in waves")
P(B, "blockers", "lab",
  "Blocked: labtrack can't send results to reportly until the lab gives us an SFTP account",
  "lab SFTP creds recieved (key vault secret labtrack-sftp), first automated file picked up tonight")
P(B, "blockers", "leak",
  "Blocked: drip-sense integration stuck, Sonara has not issued our API keys yet",
  "Sonara issued the prod API keys last thursday; drip-sense is pulling Northfield data")
P(B, "blockers", "pump",
  "Blocked: pumpbrain can't write setpoints, control room won't allow writes to PLCs without an MOC",
  "MOC-2026-014 approved. pumpbrain may write setpoints at Millrace in advisory+confirm mode")
P(B, "blockers", "notify",
  "Blocked: DS-1701 waiting on alphanumeric sender id registration with the carrier",
  "sender id HARROWWTR is registered with the carrier, DS-1701 unblocked and in review")
P(B, "blockers", "infra",
  "Blocked: can't upgrade AKS to 1.30, PodSecurityPolicy leftovers in the crewdesk helm chart",
  "PSP leftovers removed from the crewdesk chart in !1044, AKS upgrade to 1.30 went through without issues")
P(B, "blockers", "reporting",
  "Blocked: reportly DWR submission API returns 403 for our client cert",
  "DWR reissued the client cert with the right OU. reportly submissions succeed, the 403s are gone")
P(B, "blockers", "crew",
  "Blocked: crewdesk offline mode testing, no test tablets available at Greyford",
  "6 test tablets delivered to Greyford depot, offline-mode testing started with crew B")
P(B, "blockers", "auth",
  "Blocked: portal login broken for customers with a + in their email, bug in authgate upstream lib",
  "authgate v2.14.3 fixes the plus-sign email bug; those customers can log in to portal again")

# ---------------------------------------------------------------- personal-fact (15)
F = "personal-fact"
P(F, "context", "personal",
  "Rui here: I live in Eastbank, ten minutes by bike to the civic centre",
  "I'm living in Greyford these days, so it's the train to the office for me")
P(F, "context", "personal",
  "my role: backend engineer on billing (ledgerpool) - Rui",
  "I'm the tech lead of the billing + portal squad as of the Q2 reorg (Rui)")
P(F, "context", "personal",
  "I'm on the Field Apps team, working on meterline and crewdesk",
  "I sit in the Platform team: AKS, CI, observability")
P(F, "context", "personal",
  "my laptop is a ThinkPad T14 gen 2 running Fedora",
  "work laptop: MacBook Pro M3 36GB. the thinkpad went back to IT")
P(F, "context", "personal",
  "my work phone is an iPhone 12",
  "I carry a Pixel 8 for on-call, company issued")
P(F, "context", "personal",
  "I use VS Code for everything, with the remote containers extension",
  "my editor is Neovim (LazyVim config), full time")
P(F, "context", "personal",
  "I'm in the secondary on-call rotation for SCADA integrations",
  "I'm primary on-call for ds-platform, one week in five")
P(F, "context", "personal",
  "I work from the civic centre office Monday to Wednesday",
  "I'm at the Eastbank treatment works office Tue and Thu, remote the rest of the week")
P(F, "context", "personal",
  "my line manager is Ingrid Vasquez",
  "I report to Oskar Pettersen since he took over Platform")
P(F, "context", "personal",
  "my desk is on floor 3, east wing, next to the GIS people",
  "desk: hot-desking on floor 1 these days, my stuff is in locker 14")
P(F, "context", "personal",
  "I'm part-time, 4 days a week, Fridays off",
  "I'm now full-time, five days a week, since January")
P(F, "context", "personal",
  "my gitlab username is rui.f",
  "gitlab user for me is rfontes, the dotted one broke some of our scripts and was renamed")
P(F, "context", "personal",
  "I'm the DS representative on the city's security working group",
  "Amara represents DS at the security working group; I'm on the data governance board")
P(F, "context", "personal",
  "my shell is plain bash with a few aliases",
  "I use fish shell on all my machines")
P(F, "context", "personal",
  "I have break-glass access to the ledgerpool production database",
  "my break-glass membership covers aks-ds-prod only. ledgerpool db access was revoked for me after the audit")

# ---------------------------------------------------------------- addition (16)
A = "addition"
P(A, "decisions", "notify",
  "notifyr sends outage alerts to affected customers by SMS",
  "notifyr also sends outage alerts as e-mail to customers who opted in (DS-1655)")
P(A, "context", "scada",
  "tidewatch overview shows reservoir levels for Copperhill and Millrace",
  "Highbury reservoir added to the tidewatch overview, same panel layout")
P(A, "patterns", "infra",
  "every service exposes /healthz for the liveness probe",
  "services should also expose /readyz for k8s readiness, it checks db + kafka connectivity")
P(A, "context", "outage-map",
  "outage-map shows planned works with start/end times",
  "outage-map shows unplanned bursts too, red pins, estimated restore time if crewdesk has one")
P(A, "context", "billing",
  "ledgerpool accepts card payments online",
  "direct debit added as a payment option in ledgerpool, mandates handled via the bank's BACS file")
P(A, "decisions", "ci",
  "GitLab CI runs unit tests on every merge request",
  "MR pipelines additionally run a trivy image scan, results show up in the MR widget")
P(A, "context", "crew",
  "crewdesk work order types: burst, leak, meter exchange",
  "new WO type in crewdesk: hydrant flushing (HF), used by the network team from next month")
P(A, "progress", "leak",
  "drip-sense covers Northfield zone, 210 loggers",
  "drip-sense coverage extended to Copperhill zone with 140 loggers")
P(A, "context", "metering",
  "meterline supports manual reads with a photo of the register",
  "meterline can also scan the meter serial barcode to fill in the meter id")
P(A, "learnings", "scada",
  "Learned: timescale compression saves ~90% on flowvault telemetry",
  "also learned: compressed chunks in flowvault can't take inserts for late RTU backfill without decompress_chunk first")
P(A, "decisions", "portal",
  "portal is available in English",
  "Decision: portal will be offered in Polish too (second most common home language in the area); English stays the default")
P(A, "context", "reporting",
  "reportly produces the DWR monthly compliance report",
  "reportly also builds the annual lead service line inventory report for DWR")
P(A, "patterns", "observability",
  "grafana alerts route to PagerDuty",
  "critical grafana alerts additionally post in the Teams channel 'DS - Alerts' so the control room sees them")
P(A, "context", "auth",
  "authgate supports email + password login for customers",
  "authgate got passkey login for customers, password login stays as fallback")
P(A, "blockers", "lab",
  "Blocked: labtrack export to reportly waits on the LIMS field mapping for coliform results",
  "labtrack export also blocked on the lab signing the data sharing agreement, Fatou chasing legal")
P(A, "progress", "sewer",
  "sewerscope catalogues CCTV clips by street and survey date",
  "sewerscope tags each clip with the GIS asset id of the inspected sewer pipe as well")

# ---------------------------------------------------------------- kept (16)
K = "kept"
P(K, "decisions", "outage-map",
  "Decision: outage-map incident cache lives in Redis",
  "looked at Valkey for the outage-map cache after the licence noise; nothing to gain for us, staying on redis")
P(K, "decisions", "scada",
  "flowvault historian is TimescaleDB on a VM in scada-dmz",
  "evaluated InfluxDB 3 for flowvault in spike DS-1603, results not convincing, timescale stays")
P(K, "decisions", "infra",
  "we use Terraform for all infrastructure code",
  "OpenTofu considered for infra-tf; decided to keep Terraform until the azurerm provider story is clearer")
P(K, "context", "metering",
  "meterline is a native Android app written in Kotlin",
  "Flutter rewrite of meterline was spiked for 2 weeks by Mei-Lin. outcome: the Kotlin app stays")
P(K, "decisions", "metering",
  "Decision: AMI reads are ingested through our self-run Kafka",
  "benchmarked the Event Hubs kafka endpoint for ami reads: 30% cheaper but no log compaction, so we kept the self-run kafka")
P(K, "decisions", "oncall",
  "PagerDuty is the paging tool for the DS on-call",
  "grafana oncall trial finished, the team voted to keep PagerDuty")
P(K, "decisions", "ci",
  "Decision: GitLab CI is our CI/CD platform",
  "GitHub Actions comparison done for the city IT review. we keep GitLab CI, self-managed runners are the deciding point")
P(K, "decisions", "observability",
  "Sentry is used for error tracking in all apps",
  "checked App Insights as a Sentry alternative. Sentry retained, the mobile symbolication is much better")
P(K, "context", "billing",
  "ledgerpool bill PDFs are rendered by Gotenberg",
  "tried Typst for bill PDFs: faster, but rewriting 30 templates is not worth it. gotenberg kept")
P(K, "decisions", "crew",
  "crewdesk stores work orders in Postgres",
  "MongoDB was pitched for crewdesk form payloads; we stayed with postgres + jsonb columns")
P(K, "decisions", "scada",
  "tidewatch dashboards are built in Grafana",
  "vendor demoed Ignition Perspective again in October. no change, tidewatch remains grafana")
P(K, "patterns", "metering",
  "meterhub and ledgerpool talk REST/JSON",
  "gRPC evaluated for meterhub <-> ledgerpool; REST/JSON kept, payloads are small and the tooling is simpler")
P(K, "context", "gis",
  "Esri ArcGIS Enterprise is the GIS platform for the utility",
  "QGIS Server assessed by the GIS team as a cost saving; ArcGIS Enterprise retained for the asset register integration")
P(K, "decisions", "observability",
  "Decision: logs are kept in Loki",
  "compared Loki with Azure Log Analytics on cost for 3 months. Loki about 4x cheaper, it stays")
P(K, "decisions", "leak",
  "Sonara SL4 is the standard acoustic logger for leak detection",
  "6-week pilot with a competing correlator vendor at Millrace finished; Sonara kept for the 2026 batch")
P(K, "decisions", "portal",
  "portal e2e tests are in Playwright",
  "Cypress came up again in the retro. we stick with playwright")

# ---------------------------------------------------------------- rejected-proposal (15)
RP = "rejected-proposal"
P(RP, "decisions", "portal",
  "portal frontend is Angular",
  "proposal to rewrite portal in React (RFC-12) was rejected at architecture review, no budget")
P(RP, "decisions", "billing",
  "customers are billed monthly by ledgerpool",
  "proposal: bi-monthly billing to cut print and postage cost. still being discussed with finance, nothing decided")
P(RP, "decisions", "infra",
  "prod deploys only in the agreed weekly window",
  "Samir suggested continuous deploy for outage-map outside the window; control room said no")
P(RP, "context", "outage-map",
  "outage-map is public and needs no login",
  "idea floated to require login for the outage-map detail view; rejected, it is a public safety page")
P(RP, "decisions", "infra",
  "prod runs on a single AKS cluster",
  "RFC-15 multi-cluster prod (one cluster per zone) - parked, cost too high for the benefit")
P(RP, "decisions", "scada",
  "flowvault raw telemetry kept for one quarter",
  "Nikolai proposed keeping 1 year of raw telemetry; storage estimate 14 TB, declined")
P(RP, "context", "metering",
  "meterhub is written in Java",
  "long thread on rewriting meterhub in Go. no decision, it is not on the roadmap")
P(RP, "decisions", "crew",
  "crew tablets are rugged Samsung Android devices",
  "pitch to give crews iPads was rejected: MDM profile work and rugged cases cost too much")
P(RP, "patterns", "ci",
  "we do trunk-based development with short-lived branches",
  "someone proposed gitflow release branches for ledgerpool, team said no, trunk-based it is")
P(RP, "decisions", "leak",
  "drip-sense leak alerts are triaged manually by the leak team",
  "proposal to auto-create crewdesk WOs from drip-sense alerts: discussed at ops meeting, ops want manual triage to stay")
P(RP, "context", "scada",
  "tidewatch is read-only, no control actions",
  "Eastbank asked for pump start/stop buttons in tidewatch. refused, control stays in the SCADA HMI")
P(RP, "decisions", "billing",
  "ledgerpool is our own billing system",
  "CFO asked if billing could go into the city's SAP. evaluated on paper, not pursued")
P(RP, "context", "auth",
  "portal password minimum length is 12 characters",
  "suggestion to lower the portal min password length to 8 for elderly customers - rejected by security")
P(RP, "decisions", "reporting",
  "reportly submits the DWR report through their API",
  "the idea of e-mailing DWR reports as a fallback was raised; DWR doesn't accept email, so no")
P(RP, "blockers", "sewer",
  "Blocked: sewerscope storage costs are over budget for this FY",
  "proposal to delete raw CCTV after 1 year to unblock the budget was rejected by the asset team; still blocked")

# ---------------------------------------------------------------- different-subject (18)
D = "different-subject"
P(D, "patterns", "portal",
  "portal sessions are stored in Redis (Azure Cache basic C1)",
  "rate limiting for the ledgerpool API uses Redis too, separate instance redis-rl")
P(D, "context", "scada",
  "tidewatch dashboards auto-refresh every 30s",
  "outage-map web client auto-refreshes every 2 min")
P(D, "context", "metering",
  "meterhub kafka consumer group is meterhub-prod",
  "drip-sense uses kafka consumer group dripsense-ingest on the sonara.raw topic")
P(D, "decisions", "notify",
  "notifyr SMS sender id is HARROWWTR",
  "e-mail sender for ledgerpool bills is billing@harrowmerewater.gov")
P(D, "context", "billing",
  "ledgerpool keeps bill PDFs for 7 years",
  "sewerscope keeps raw CCTV clips 3 years")
P(D, "context", "scada",
  "Copperhill reservoir low-level alarm is routed to the control room desk",
  "Highbury reservoir low-level alarm at 1.8 m")
P(D, "patterns", "pump",
  "backend services are on python 3.12",
  "pumpbrain notebooks are pinned to python 3.10 because of one solver wheel")
P(D, "context", "auth",
  "staff SSO for internal apps is Entra ID",
  "customer accounts in authgate are local accounts, not Entra")
P(D, "progress", "gis",
  "nightly gisbridge run syncs the pipe layers",
  "nightly export of the hydrant layer to the fire service over sftp is a separate job (fire-export)")
P(D, "context", "oncall",
  "PagerDuty policy ds-primary pages for platform alerts",
  "PagerDuty policy scada-ops pages the control room engineers on RTU comms loss")
P(D, "context", "observability",
  "tidewatch runs on grafana 11",
  "grafana-ops (internal k8s metrics) is a separate instance on 10.4")
P(D, "decisions", "billing",
  "ledgerpool bill run is monthly",
  "meter read export from meterhub to ledgerpool runs weekly, Sunday night")
P(D, "learnings", "metering",
  "ami.reads.v1 carries all interval reads",
  "ami.alarms.v1 (tamper, backflow, leak flags) has 6 partitions, volume is tiny")
P(D, "context", "scada",
  "Northfield zone has a hi-pressure alarm in tidewatch",
  "Northfield zone low-pressure alarm: 2.0 bar")
P(D, "context", "metering",
  "meterline minimum supported OS is android 14",
  "crewdesk tablet app supports android 12+, the sewer crew still has old Tab Active3s")
P(D, "patterns", "ci",
  "backend coverage gate is enforced in CI",
  "frontend (portal) coverage gate is 60%")
P(D, "context", "notify",
  "notifyr gives up on an SMS after the last retry and logs it",
  "gisbridge retries ArcGIS 429s 3 times, then waits for the next cycle")
P(D, "context", "infra",
  "AKS services read secrets from Azure Key Vault",
  "SCADA DMZ secrets are in HashiCorp Vault on-prem (vault.scada.local), not in azure")

# ---------------------------------------------------------------- part-change (15)
PC = "part-change"
P(PC, "context", "outage-map",
  "outage-map is hosted on AKS behind the city's Front Door",
  "outage-map public hostname is outages.harrowmerewater.gov, the old hostname 301s to it")
P(PC, "context", "billing",
  "ledgerpool database runs on Azure pg flexible server",
  "ledgerpool-pg-prod SKU bumped to D8ds_v5 before the bill run")
P(PC, "context", "metering",
  "meterhub consumes AMI reads from kafka topic ami.reads.v1",
  "meterhub consumer group renamed to meterhub-v2 for the reprocessing, still reads ami.reads.v1")
P(PC, "decisions", "observability",
  "meterline errors are tracked in Sentry",
  "sentry alert rules for meterline tightened: only page on new issues in the current release")
P(PC, "context", "notify",
  "notifyr sends SMS via Vonage",
  "Vonage sub-account secret for notifyr rotates every 90 days (runbook RB-21)")
P(PC, "context", "leak",
  "drip-sense ingests data from Sonara SL4 loggers",
  "Sonara SL4 firmware 3.1 rolled out to the Northfield batch: same loggers, better battery reporting")
P(PC, "context", "crew",
  "Kerstin Albers is PO for crewdesk",
  "Kerstin does crewdesk backlog refinement on Thursdays, not Tuesdays")
P(PC, "patterns", "oncall",
  "ds-primary escalation policy in PagerDuty pages primary then secondary",
  "ds-primary escalation timeout raised to 15 min before it goes to secondary")
P(PC, "context", "scada",
  "tidewatch dashboards are provisioned from git",
  "tidewatch dashboard repo is split into per-site folders: eastbank/, millrace/, oldquay/")
P(PC, "context", "infra",
  "terraform state for infra-tf is in storage account dsstate01",
  "dsstate01 has soft delete and blob versioning enabled")
P(PC, "context", "portal",
  "portal e2e suite runs on every MR",
  "playwright specs are sharded across 4 jobs, e2e stage takes 11 min")
P(PC, "context", "leak",
  "drip-sense alerts are routed to the PagerDuty service leak-analytics",
  "Priya is off the leak-analytics rota for parental leave, Devika and Samir cover")
P(PC, "context", "gis",
  "gisbridge reads pipe layers from the ArcGIS Enterprise feature service",
  "GIS team upgraded ArcGIS Enterprise to 11.3 over the weekend, gisbridge unaffected")
P(PC, "context", "reporting",
  "reportly renders the DWR monthly PDF with WeasyPrint",
  "DWR monthly template got an extra page for lead sampling results")
P(PC, "context", "infra",
  "prod services run on aks-ds-prod in West Europe",
  "system nodepool of aks-ds-prod resized to 3x D4s_v5")

# ---------------------------------------------------------------- refinement (15)
RF = "refinement"
P(RF, "decisions", "observability",
  "all services log JSON to stdout",
  "JSON log lines must carry trace_id and service fields, level in lowercase")
P(RF, "patterns", "infra",
  "outbound HTTP calls are retried on failure",
  "retries only for idempotent calls (GET/PUT) and on 429/503. never retry a POST to ledgerpool payments")
P(RF, "context", "outage-map",
  "outage-map shows unplanned bursts",
  "a burst appears on outage-map only after the control room confirms it in crewdesk, not on the first customer call")
P(RF, "decisions", "auth",
  "portal supports passkeys",
  "passkeys in portal are limited to platform authenticators for the first release; hardware keys later")
P(RF, "context", "scada",
  "flowvault stores all RTU telemetry",
  "flowvault layout: one hypertable per signal type (flow, pressure, level, chlorine), 1 day chunks")
P(RF, "learnings", "billing",
  "Learned: database schema changes must stay backwards compatible",
  "expand/contract for ledgerpool: add column, backfill, deploy the reader, then drop, each step in its own release")
P(RF, "decisions", "leak",
  "drip-sense alerts go to the leak team for triage",
  "leak team triages within 1 working day; alerts on the Copperhill trunk main are high priority")
P(RF, "context", "crew",
  "crewdesk work orders carry a location",
  "WO location comes from the GIS asset when an asset id is given, otherwise tablet GPS at creation")
P(RF, "patterns", "ci",
  "every MR needs a review before merge",
  "MRs touching the ledgerpool tariff code need two approvals, one of them from the billing squad")
P(RF, "context", "reporting",
  "reportly submits the monthly report to DWR",
  "DWR monthly is due by the 10th, reportly submits on the 5th to leave room for corrections")
P(RF, "decisions", "infra",
  "app secrets go into Azure Key Vault",
  "one key vault per environment: kv-ds-dev, kv-ds-test, kv-ds-prod")
P(RF, "context", "metering",
  "meterline works offline",
  "meterline offline queue holds up to 2000 reads; syncs on wifi, or on 4G when more than 50 are pending")
P(RF, "blockers", "scada",
  "Blocked: Highbury site in tidewatch waiting on RTU commissioning",
  "the Highbury block is only the chlorine analyser tags at this point, flow and level tags are commissioned")
P(RF, "progress", "metering",
  "AMI phase 2 rollout in progress",
  "phase 2 AMI: 8,400 of 21,000 meters installed, Northfield first then Greyford")
P(RF, "learnings", "scada",
  "TIL timescale continuous aggregates are great for dashboards",
  "continuous aggregates behind tidewatch: 1-min and 15-min buckets, and the 1h one is built on top of the 15-min one (hierarchical)")

# ---------------------------------------------------------------- unrelated-with-marker (15)
U = "unrelated-with-marker"
P(U, "context", "scada",
  "tidewatch shows Millrace pump status from flowvault tags",
  "Millrace pumping station staff moved into the new control building in June")
P(U, "decisions", "billing",
  "ledgerpool bill run happens on the last working day",
  "we switched the billing squad standup to 09:30")
P(U, "context", "outage-map",
  "outage-map geojson cache ttl is 30 seconds",
  "Joel switched the outage-map Figma file over to the new council brand colours")
P(U, "patterns", "ci",
  "coverage gate blocks merges on backend repos",
  "gitlab group ds/legacy migrated to the archive namespace, read-only")
P(U, "context", "metering",
  "meterline offline maps come from our own tileserver",
  "the meter reading route for crew B around Greyford changed after the new estate was built")
P(U, "learnings", "infra",
  "TIL pg_cron jobs on flexible server run in UTC",
  "the postgres book club switched to Friday lunchtimes")
P(U, "context", "notify",
  "HARROWWTR is the SMS sender id customers see",
  "HARROWWTR letterhead on the printed bills replaced with the new council branding")
P(U, "context", "scada",
  "flowvault compresses chunks older than 7 days",
  "flowvault design doc moved to the DS wiki under Architecture/Historian")
P(U, "decisions", "leak",
  "drip-sense leak alerts need confirmation by a listening stick survey",
  "the leak team office moved from Old Quay to Eastbank")
P(U, "context", "infra",
  "city IT owns the Entra tenant that aks-ds-prod authenticates against",
  "city IT helpdesk migrated to ServiceNow last week, the old ticket email is dead")
P(U, "context", "crew",
  "Kerstin signs off crewdesk releases",
  "Kerstin's desk moved to floor 2 next to ops planning")
P(U, "context", "lab",
  "labtrack flags chlorine residual results below 0.2 mg/l",
  "the lab changed their courier for samples from Copperhill")
P(U, "patterns", "infra",
  "postgres backups are restore-tested once a quarter",
  "backup tapes from the old hyper-v host were moved offsite to the records store")
P(U, "context", "portal",
  "portal idle session timeout is enforced server side",
  "the portal team retro changed to every other Friday")
P(U, "progress", "sewer",
  "sewerscope ingests clips uploaded from the CCTV vans",
  "CCTV van 2 replaced after the gearbox failure, new registration added to the fleet list")

# ---------------------------------------------------------------- chains (12)
# (namespace, [A, B, C]) : B supersedes A, C supersedes B.
CHAINS = [
    ("decisions", [
        "container images are pushed to the Docker Hub org harrowwater",
        "container images live in the GitLab registry of each project",
        "all images are published to Azure Container Registry acrdsprod, CI pushes nowhere else"]),
    ("context", [
        "meterline syncs captured reads every 30 min",
        "meterline sync interval is 10 minutes",
        "meterline pushes each read the moment it has signal; the queue is only used offline"]),
    ("context", [
        "crewdesk database is Postgres 11",
        "crewdesk db upgraded to pg 14 during the March maintenance",
        "crewdesk-pg runs Postgres 17"]),
    ("context", [
        "labtrack runs on an IIS box in the lab building",
        "labtrack is a container on aks-ds-prod",
        "labtrack is SaaS from the LIMS vendor; our code is only the export adapter"]),
    ("decisions", [
        "tidewatch low chlorine residual alarm at 0.2 mg/l",
        "low chlorine residual alarm raised to 0.3 mg/l on all sites",
        "chlorine residual low alarm in tidewatch: 0.35 mg/l (water quality team, Aug)"]),
    ("context", [
        "flowvault runs TimescaleDB 2.9",
        "flowvault timescale extension is 2.13",
        "flowvault is on timescaledb 2.17"]),
    ("context", [
        "outage-map owner: Samir Haddad",
        "Mei-Lin Cho owns outage-map",
        "outage-map is owned by the Customer squad, lead Luca Benedetti"]),
    ("patterns", [
        "gisbridge requests 500 features per page from ArcGIS",
        "gisbridge page size 2000 features",
        "gisbridge page size back at 1000 after the timeouts on the sewer layer"]),
    ("decisions", [
        "load tests for portal are written in JMeter",
        "portal load tests are Locust scripts in the perf/ folder",
        "load testing is done with k6, scripts in perf/k6 and results into grafana"]),
    ("context", [
        "meterline is built with Kotlin 1.7",
        "meterline kotlin version 1.9.22",
        "meterline compiles with Kotlin 2.0 (K2 compiler)"]),
    ("context", [
        "DS daily standup at 09:15 in the small meeting room",
        "standup is 10:00 on Teams",
        "standup is async in a Teams thread, a call only on Mondays"]),
    ("decisions", [
        "drip-sense leak classifier is a random forest in scikit-learn",
        "drip-sense classifier is LightGBM, retrained monthly",
        "drip-sense classifies leak noise with a small 1D CNN exported to ONNX"]),
]

# ---------------------------------------------------------------- filler (120)
# (namespace, text): notes nothing supersedes.
FILLER = [
    # context
    ("context", "tidewatch has one dashboard folder per site: Eastbank, Millrace, Old Quay, Copperhill"),
    ("context", "meterhub owner is Tomasz Krawiec"),
    ("context", "ledgerpool serves about 148k customer accounts, ~6k of them commercial"),
    ("context", "crewdesk is used by 11 field crews working out of Greyford and Eastbank depots"),
    ("context", "outage-map gets ~40k views on a burst day and around 2k on a normal day"),
    ("context", "Old Quay is the wastewater treatment plant, Eastbank the main drinking water works"),
    ("context", "Ingrid Vasquez is head of Digital Services"),
    ("context", "gisbridge writes into the postgis schema gis_mirror that crewdesk and outage-map read"),
    ("context", "the control room at Eastbank is staffed 24/7, 2 operators per shift"),
    ("context", "notifyr message templates are in the notify-templates repo, reviewed by comms"),
    ("context", "pumpbrain covers six pumping stations including Millrace"),
    ("context", "labtrack holds sample results from the accredited lab plus our own field kits"),
    ("context", "reportly is owned by Amara Okafor"),
    ("context", "sewerscope has about 3,100 clips, mostly 1080p from vans 1 and 2"),
    ("context", "authgate is our small OIDC provider for customer accounts, built on a maintained open source lib"),
    ("context", "DWR is the state drinking water regulator, all compliance reports go to them"),
    ("context", "Kafka runs on three VMs in the AKS vnet, not inside the cluster"),
    ("context", "the customer contact centre uses ledgerpool's agent screens, not the portal"),
    ("context", "Nikolai Zubov is the SCADA engineer from operations who pairs with us on flowvault"),
    ("context", "Greyford depot has the stores, the crew vans and the spare tablets cupboard"),
    ("context", "Highbury is the smallest reservoir, gravity fed from Copperhill"),
    ("context", "meterline and crewdesk share a login screen component from the ds-android-common lib"),
    ("context", "there are roughly 1,900 RTU tags in flowvault today"),
    ("context", "billing + portal squad: Luca, Mei-Lin, Joel and two contractors"),
    ("context", "Redis also backs the crewdesk job queue (rq), small instance, not critical"),
    ("context", "Priya Natarajan is the data scientist behind the drip-sense classifier"),
    ("context", "tileserver-gl serves both outage-map and the meterline mbtiles downloads"),
    ("context", "the public portal lives at my.harrowmerewater.gov"),
    ("context", "Hanne Lindqvist is the GIS team's contact for gisbridge questions"),
    ("context", "the Kestrel head-end is hosted by the vendor, we only get the file drops and the API"),
    # decisions
    ("decisions", "Decision: every new service gets a runbook in the ds-runbooks repo before go-live"),
    ("decisions", "Decision: customer PII never goes into Sentry, scrubbing rules in the shared sentry config"),
    ("decisions", "ADR-007: outage-map is read-only, incidents are created in crewdesk only"),
    ("decisions", "Decision: no direct database access between services, only APIs or kafka topics"),
    ("decisions", "all public hostnames sit behind Front Door with the city WAF policy"),
    ("decisions", "ADR-011: tariff tables are versioned data files in ledgerpool, not code"),
    ("decisions", "Decision: SCADA network is never reachable from the internet, tidewatch only sees flowvault"),
    ("decisions", "every grafana dashboard in tidewatch must have an owner tag"),
    ("decisions", "decided that meterline reads without a photo are accepted only for meters above ground"),
    ("decisions", "Decision: notifyr never sends marketing, only operational messages"),
    ("decisions", "reportly output files are kept 10 years in the compliance blob container with legal hold"),
    ("decisions", "Decision: crewdesk supervisor role can reassign WOs between crews, crews cannot"),
    ("decisions", "ADR-014: helm charts for all services live in one ds-charts repo"),
    ("decisions", "Decision: drip-sense does not send alerts to customers, internal only"),
    ("decisions", "public APIs are versioned in the path (/v1/, /v2/), at least 6 months overlap"),
    # patterns
    ("patterns", "kafka topic naming: <domain>.<entity>.v<n>, e.g. ami.reads.v1"),
    ("patterns", "every service has a /metrics endpoint scraped by prometheus"),
    ("patterns", "db migrations with alembic in python services, flyway in meterhub"),
    ("patterns", "feature branches named <ticket>-<short-desc>, e.g. DS-1580-outage-poll"),
    ("patterns", "use the ds-logging lib for structured logs, don't roll your own formatter"),
    ("patterns", "idempotency keys on all ledgerpool payment endpoints"),
    ("patterns", "grafana dashboards as json in git, never edit prod dashboards by hand"),
    ("patterns", "terraform modules in infra-tf/modules, one env folder per environment"),
    ("patterns", "Android apps use Hilt for DI and Room for the offline store"),
    ("patterns", "consumer apps commit kafka offsets only after the db transaction commits"),
    ("patterns", "timestamps stored in UTC in postgres, converted in the UI only"),
    ("patterns", "for SCADA tags we keep the original tag name from the RTU as the key, no renaming"),
    ("patterns", "each helm release gets resource requests and limits, no exceptions"),
    ("patterns", "postgres roles: <service>_app for runtime, <service>_migrate for schema changes"),
    ("patterns", "incident postmortems are blameless, template in ds-runbooks/postmortem.md"),
    # learnings
    ("learnings", "TIL Intune can force-install a managed app version but it takes up to 8h to reach all tablets"),
    ("learnings", "Learned: ArcGIS feature service returns max 2000 records per query unless the server setting is raised"),
    ("learnings", "Learned: the Kestrel head-end file drops sometimes arrive twice with different names, dedupe on content hash"),
    ("learnings", "TIL grafana template variables with 'All' option blow up flowvault queries, use a regex filter"),
    ("learnings", "learned the hard way: AKS node image upgrades restart pods, meterhub needs a PDB"),
    ("learnings", "TIL Sonara loggers wake up at 02:00-04:00 local to record, so their data is always a day behind"),
    ("learnings", "lesson from the January freeze: burst volume on outage-map x20, CDN caching of the geojson saved us"),
    ("learnings", "Learned: WeasyPrint needs the fonts installed in the image or the PDF silently falls back to DejaVu"),
    ("learnings", "TIL crew tablets go into battery saver below 20% and kill meterline background sync"),
    ("learnings", "Learned: Twilio and Vonage both count a 161-char message with an emoji as 3 segments"),
    ("learnings", "TIL postgres jsonb containment queries need a GIN index or crewdesk search crawls"),
    ("learnings", "Learned: DWR validates the report schema strictly, an empty optional element fails the whole file"),
    ("learnings", "TIL the lab results use '<0.1' strings for below detection limit, labtrack keeps them as text + flag"),
    ("learnings", "learned that EMQX shared subscriptions don't guarantee order across subscribers, flowvault sorts by RTU timestamp"),
    ("learnings", "TIL Azure Front Door caches 404s by default for a while, bit us on outage-map launch"),
    ("learnings", "Learned: pumpbrain plans are only useful if the reservoir level forecast is good, most error came from there"),
    ("learnings", "TIL helm --atomic rolls back on timeout, good for crewdesk deploys in the window"),
    ("learnings", "Learned: customers read restore times as promises, so the outage-map wording says 'expected' as agreed with comms"),
    ("learnings", "TIL the sewer CCTV files have the survey metadata in a sidecar XML (WRc format)"),
    ("learnings", "Learned: kafka consumer lag on ami.reads.v1 spikes every 6h when meters upload, it's normal"),
    # blockers (open ones, nothing resolves them)
    ("blockers", "Blocked: pumpbrain tariff feed from the energy supplier has gaps on bank holidays, supplier ticket INC-5521"),
    ("blockers", "Blocked: sewerscope asset-id tagging needs the sewer layer in gisbridge, GIS team still cleaning it"),
    ("blockers", "Blocked: portal Polish translations waiting on the translation agency quote"),
    ("blockers", "Blocked: outage-map SMS subscribe feature needs legal sign-off on consent wording"),
    ("blockers", "Blocked: meterhub replay of 2024 reads, need a 2 TB scratch disk approved"),
    ("blockers", "Blocked: crewdesk integration with fleet telematics - vendor API docs not received"),
    ("blockers", "Blocked: tidewatch Old Quay inlet flow tags, RTU has the wrong scaling, ops engineer on leave"),
    ("blockers", "Blocked: reportly lead inventory report, DWR hasn't published the final schema yet"),
    ("blockers", "Blocked: grafana SSO for control room kiosk screens, shared accounts not allowed by security"),
    ("blockers", "Blocked: labtrack Highbury sampling point missing in LIMS, lab admin to add it"),
    ("blockers", "Blocked: ledgerpool direct debit testing, bank test environment is down again"),
    ("blockers", "Blocked: drip-sense Copperhill batch, 12 loggers not reporting, Sonara checking SIMs"),
    # progress
    ("progress", "outage-map v1.3 released: search by postcode, share link per incident"),
    ("progress", "meterhub reprocessing of March reads done, 2.1M rows corrected"),
    ("progress", "crewdesk offline mode at 80%, photo attachments left"),
    ("progress", "tidewatch Millrace dashboard redone with the ops team, sign-off Friday"),
    ("progress", "ledgerpool 2026 tariff loaded in test, first dry-run bill run looks ok"),
    ("progress", "drip-sense v2 classifier shadow-running next to v1 for a month"),
    ("progress", "gisbridge now syncs the valve layer as well, needed for crewdesk isolation planning"),
    ("progress", "reportly: 11 of 14 DWR report sections automated"),
    ("progress", "portal direct debit sign-up page in UAT with the customer panel"),
    ("progress", "sewerscope search by street done, by asset id next sprint"),
    ("progress", "pumpbrain advisory mode live at Millrace, operators confirm each setpoint"),
    ("progress", "notifyr templates translated to Polish, pending comms review"),
    ("progress", "AMI phase 1 closed out: 12,700 meters, 98.1% daily read success"),
    ("progress", "labtrack -> reportly automated feed in test, parity check with manual spreadsheet"),
    ("progress", "infra-tf: all prod resources imported, drift check runs nightly in CI"),
    ("progress", "meterline 4.3 in internal testing with crew A, barcode scan works on Tab Active5"),
    ("progress", "authgate passkey enrolment at 6% of active customers after 3 weeks"),
    ("progress", "PagerDuty service catalogue cleaned up, 9 services each mapped to an owner"),
    ("progress", "Loki retention set up per tenant, prod 30d, test 7d"),
    ("progress", "flowvault continuous aggregates backfilled for 2023-2025"),
    ("progress", "crewdesk hydrant flushing forms designed with network team, build starts next sprint"),
    ("progress", "outage-map accessibility audit done, 4 issues fixed, 1 open on map keyboard nav"),
    ("progress", "DS-1655 e-mail outage alerts: 3,400 customers opted in during first week"),
    ("decisions", "Decision: meterline keeps 30 days of reads on the tablet after sync, for disputes in the field"),
    ("decisions", "Decision: the Redis used by outage-map is treated as disposable, no persistence, no backups"),
    ("blockers", "Blocked: Kafka broker disk expansion needs a change slot from city IT, next CAB is the 14th"),
    ("patterns", "SMS text in notifyr is kept under 160 GSM chars, links go through the short domain hwtr.uk"),
    ("context", "the leak analytics group is Devika Rao, Samir Haddad and Priya Natarajan"),
]

#!/usr/bin/env python3
"""Source of the category list. Written by hand from general knowledge.
Each value is a '|'-separated list of names; build writes kinds.json sorted."""
import json, pathlib

K = {
"language": """python|javascript|typescript|java|kotlin|scala|golang|c++|cpp|c#|csharp|f#|fsharp|php|perl|ruby|
elixir|erlang|haskell|ocaml|clojure|clojurescript|lua|dart|objective-c|objc|zig|nim|elm|fortran|cobol|visual basic|
vb.net|vba|matlab|solidity|sql|pl/sql|plsql|t-sql|tsql|prolog|coffeescript|purescript|rescript|haxe|abap|tcl|awk|
lisp|common lisp|smalltalk|delphi|apl|standard ml|idris|agda|actionscript|gdscript|vhdl|verilog""",

"relational-database": """postgres|postgresql|mysql|mariadb|sqlite|sqlite3|sql server|mssql|microsoft sql server|
oracle database|oracle db|db2|ibm db2|cockroachdb|yugabytedb|yugabyte|tidb|cloud spanner|google spanner|amazon aurora|
aws aurora|aurora postgres|aurora mysql|amazon rds|rds|cloud sql|azure sql|azure sql database|alloydb|neon postgres|
planetscale|crunchy bridge|firebird|percona server|sybase|informix|h2 database|hsqldb|apache derby|singlestore|memsql|
vitess|citus|edgedb|libsql|turso|cloudflare d1|voltdb|nuodb|oceanbase|polardb|rqlite|heroku postgres|
azure database for postgresql|azure database for mysql""",

"nosql-database": """mongodb|mongo|mongodb atlas|couchdb|apache couchdb|couchbase|firestore|cloud firestore|
firebase realtime database|dynamodb|amazon dynamodb|cosmos db|cosmosdb|azure cosmos db|ravendb|documentdb|
amazon documentdb|faunadb|arangodb|rethinkdb|pouchdb|ferretdb|surrealdb|marklogic|cassandra|apache cassandra|scylladb|
hbase|apache hbase|bigtable|cloud bigtable|amazon keyspaces|datastax astra|foundationdb|tikv|aerospike|
azure table storage|riak|orientdb""",

"vector-database": """pinecone|weaviate|milvus|zilliz|qdrant|chromadb|pgvector|lancedb|vespa|vespa.ai|faiss|turbopuffer|
marqo|vald|deep lake|vertex ai vector search|pgvecto.rs|vectara|hnswlib|usearch|scann""",

"data-warehouse": """snowflake|bigquery|google bigquery|redshift|amazon redshift|databricks|databricks sql|clickhouse|
clickhouse cloud|azure synapse|firebolt|duckdb|motherduck|apache druid|apache pinot|starrocks|apache doris|teradata|
vertica|greenplum|yellowbrick|exasol|microsoft fabric|oracle autonomous data warehouse|sap hana|tinybird|rockset|
kinetica|presto|prestodb|trino|dremio|starburst|amazon athena|aws athena""",

"cache": """redis|memcached|valkey|keydb|dragonflydb|hazelcast|ehcache|apache ignite|elasticache|
amazon elasticache|memorystore|google memorystore|azure cache for redis|upstash|redis cloud|redis enterprise|momento|
guava cache|infinispan|oracle coherence|memcachier|tarantool|kvrocks|apache kvrocks""",

"search-engine": """elasticsearch|opensearch|amazon opensearch|solr|apache solr|algolia|meilisearch|typesense|
manticore search|sphinx search|sphinxsearch|vespa|lucene|apache lucene|azure ai search|azure cognitive search|
amazon cloudsearch|amazon kendra|zincsearch|quickwit|coveo|swiftype|elastic app search|bleve|tantivy|
vertex ai search|orama|pagefind|lunr|lunr.js|fuse.js|flexsearch|minisearch|paradedb""",

"message-queue": """kafka|apache kafka|confluent cloud|confluent|redpanda|rabbitmq|activemq|activemq artemis|nats|
nats jetstream|apache pulsar|kinesis|amazon kinesis|sqs|amazon sqs|sns|amazon sns|google pub/sub|
cloud pub/sub|azure service bus|azure event hubs|event hubs|azure event grid|eventbridge|amazon eventbridge|zeromq|
zmq|amazon mq|ibm mq|websphere mq|nsq|beanstalkd|redis streams|apache rocketmq|rocketmq|amazon msk|hivemq|mosquitto|
eclipse mosquitto|emqx|qstash|cloudflare queues|google cloud tasks""",

"workflow-orchestrator": """airflow|apache airflow|dagster|prefect|luigi|argo workflows|kubeflow pipelines|temporal.io|
cadence workflow|aws step functions|step functions|apache nifi|nifi|azure data factory|google cloud composer|
cloud composer|mwaa|amazon mwaa|flyte|metaflow|kestra|mage.ai|netflix conductor|orkes conductor|oozie|apache oozie|
azkaban|control-m|autosys|zenml|windmill.dev|inngest|trigger.dev|dbos""",

"ml-framework": """pytorch|tensorflow|keras|jax|mxnet|apache mxnet|caffe|caffe2|theano|paddlepaddle|mindspore|chainer|
cntk|pytorch lightning|fastai|tensorflow.js|tf.js|mlx|tinygrad|deeplearning4j|dl4j|scikit-learn|sklearn|xgboost|
lightgbm|catboost|h2o|spark mllib|flux.jl""",

"experiment-tracking": """mlflow|weights & biases|weights and biases|wandb|w&b|comet ml|comet.ml|neptune.ai|
tensorboard|clearml|guild ai|dvc|dvc studio|polyaxon|valohai|sagemaker experiments|vertex ai experiments|
determined ai|dagshub|aimstack|trackio""",

"llm-api-provider": """openai|anthropic|azure openai|amazon bedrock|aws bedrock|vertex ai|google ai studio|gemini api|
mistral ai|together ai|groq|fireworks ai|hugging face|huggingface|hugging face inference endpoints|deepseek|
openrouter|deepinfra|cerebras|ai21 labs|aleph alpha|anyscale|lepton ai|novita ai|sambanova|nebius ai studio|
baseten|modal labs""",

"bi-dashboard": """tableau|looker|looker studio|google data studio|data studio|power bi|powerbi|metabase|
apache superset|redash|mode analytics|sisense|qlik|qlik sense|qlikview|domo|hex.tech|thoughtspot|lightdash|
quicksight|amazon quicksight|sigma computing|preset.io|evidence.dev|holistics|cube.dev|microstrategy|zoho analytics|
chartio|periscope data|rill data""",

"product-analytics": """mixpanel|amplitude|heap analytics|posthog|pendo|kissmetrics|google analytics|ga4|
universal analytics|adobe analytics|plausible analytics|matomo|piwik|umami analytics|
fathom analytics|goatcounter|statcounter|cloudflare web analytics|vercel analytics|countly|firebase analytics|
fullstory|hotjar|logrocket|smartlook|mouseflow|microsoft clarity|openreplay|highlight.io|inspectlet|contentsquare|
quantum metric|june.so|woopra|snowplow""",

"error-tracking": """sentry|sentry.io|bugsnag|rollbar|raygun|airbrake|honeybadger|crashlytics|firebase crashlytics|
trackjs|glitchtip|errbit|exceptionless|instabug|embrace.io|backtrace.io|bugsplat|bugfender|errorception""",

"apm-tracing": """datadog|datadog apm|new relic|newrelic|dynatrace|appdynamics|elastic apm|jaeger|zipkin|honeycomb|
lightstep|servicenow cloud observability|aws x-ray|grafana tempo|signoz|instana|scout apm|skywalking|
apache skywalking|uptrace|appsignal|stackify|stackify retrace|splunk apm|splunk observability|google cloud trace|
azure monitor|application insights|app insights|elastic observability|kamon|pinpoint apm|tideways|
blackfire|atatus|chronosphere|lumigo|epsagon|thundra|coroot""",

"log-management": """splunk|elk|elk stack|elastic stack|kibana|loki|grafana loki|papertrail|loggly|sumo logic|
sumologic|graylog|logz.io|logdna|mezmo|better stack|betterstack|logtail|cloudwatch|cloudwatch logs|aws cloudwatch|
stackdriver|google cloud logging|coralogix|humio|falcon logscale|crowdstrike falcon logscale|axiom.co|
logentries|sematext logs|datadog|datadog logs|new relic logs|azure log analytics|openobserve|victorialogs|hyperdx|
baselime|logflare|scalyr""",

"monitoring": """prometheus|grafana|grafana cloud|graphite|influxdb|statsd|victoriametrics|nagios|zabbix|icinga|
icinga2|munin|prtg|checkmk|netdata|thanos|grafana mimir|m3db|timescaledb|questdb|opentsdb|kdb+|amazon timestream|
telegraf|datadog|new relic|sensu|librenms|observium|zenoss|solarwinds|logicmonitor|opsview|monit|collectd|signalfx|
sysdig monitor|cloudwatch metrics|pingdom|uptimerobot|uptime robot|statuscake|better uptime|checkly|freshping|
site24x7|uptime kuma|hetrixtools|cronitor|healthchecks.io|dead man's snitch|updown.io|uptime.com|upptime|gatus|
openstatus|hyperping""",

"on-call": """pagerduty|opsgenie|victorops|splunk on-call|incident.io|firehydrant|rootly|squadcast|xmatters|
grafana oncall|zenduty|spike.sh|ilert|alertops|everbridge|allquiet|pagertree|signl4|alerta|statuspage|
atlassian statuspage|instatus|status.io""",

"issue-tracker": """jira|jira software|github issues|gitlab issues|linear.app|youtrack|azure boards|azure devops|
pivotal tracker|trello|asana|monday.com|clickup|basecamp|redmine|bugzilla|mantisbt|trac|taiga.io|wrike|smartsheet|
targetprocess|rally software|fogbugz|zenhub|plane.so|height.app|huly|openproject|teamwork.com|meistertask|favro|
kanbanize|github projects""",

"chat": """microsoft teams|ms teams|discord|mattermost|rocket.chat|rocketchat|google chat|hangouts chat|
google hangouts|zulip|element.io|matrix.org|hipchat|gitter|irc|telegram|whatsapp|skype|skype for business|
workplace from meta|facebook workplace|chanty|pumble|ryver|wickr|threema|flowdock|twist.com|lark suite|larksuite|
feishu|dingtalk|wechat|wecom|wechat work|kakaotalk""",

"video-call": """google meet|gmeet|webex|cisco webex|microsoft teams|gotomeeting|bluejeans|jitsi|jitsi meet|
whereby.com|skype|facetime|gather.town|livestorm|ringcentral|ringcentral video|zoho meeting|bigbluebutton|
amazon chime|around.co|tuple.app|streamyard|riverside.fm|vidyo|mirotalk|daily.co|gotowebinar|zoom.us""",

"wiki-docs": """confluence|notion.so|google docs|gdocs|dropbox paper|coda.io|gitbook|bookstack|nuclino|tettra|
dokuwiki|mediawiki|wiki.js|xwiki|sharepoint|microsoft loop|onenote|evernote|tiddlywiki|roam research|logseq|
obsidian.md|outline wiki|document360|archbee|helpjuice|slite|hackmd|hedgedoc|etherpad|anytype|appflowy|docmost|
github wiki|gitlab wiki|azure devops wiki|craft.do|bit.ai""",

"help-desk": """zendesk|freshdesk|intercom|help scout|helpscout|kustomer|gorgias|hubspot service hub|zoho desk|
jira service management|jira service desk|servicenow|freshservice|tawk.to|livechat|olark|re:amaze|happyfox|kayako|
desk.com|osticket|zammad|chatwoot|frontapp|crisp.chat|zoho salesiq|groove hq|helpshift|deskpro|teamsupport|liveagent|
trengo|dixa|plain.com|hiver|richpanel|sprinklr|salesforce service cloud|service cloud""",

"crm": """salesforce|hubspot|hubspot crm|pipedrive|zoho crm|dynamics 365|microsoft dynamics|microsoft dynamics 365|
sugarcrm|close.com|copper crm|insightly|freshsales|attio|keap|infusionsoft|capsule crm|streak crm|vtiger|suitecrm|
odoo|odoo crm|less annoying crm|agile crm|salesflare|folk crm|twenty crm|espocrm|monday sales crm|bitrix24|
zendesk sell|apptivo|salesforce sales cloud|sales cloud|nimble crm""",

"design-tool": """figma|adobe xd|invision|zeplin|framer|penpot|balsamiq|axure|axure rp|marvel app|photoshop|
adobe photoshop|adobe illustrator|affinity designer|affinity photo|canva|proto.io|uxpin|origami studio|protopie|
sketch app|inkscape|gimp|photopea|pixso|motiff|uizard|visily""",

"diagramming-whiteboard": """miro|figjam|excalidraw|lucidchart|draw.io|diagrams.net|visio|microsoft visio|omnigraffle|
mural.co|lucidspark|tldraw|creately|gliffy|cacoo|microsoft whiteboard|jamboard|plantuml|mermaid.js|mermaidjs|
structurizr|ilograph|icepanel|cloudcraft|eraser.io|d2lang|graphviz|yed|smartdraw|conceptboard|milanote|heptabase|
xmind|mindmeister|mindnode|apple freeform""",

"i18n-platform": """crowdin|lokalise|phraseapp|phrase strings|phrase tms|transifex|poeditor|weblate|smartling|localazy|
tolgee|lingohub|pontoon|locize|simplelocalize|traduora|memsource|gengo|unbabel|weglot|pootle|zanata|gridly|inlang|
applanga|onesky|trados|memoq|xtm cloud|localizejs""",

"test-runner-js": """jest|vitest|mocha|qunit|node:test|uvu|bun test|web test runner|node-tap|japa|avajs|deno test|
wallaby.js|baretest""",

"test-runner-python": """pytest|unittest|unittest2|nose2|nosetests|doctest|robot framework|testtools|stestr|
zope.testrunner|django test runner""",

"e2e-testing": """cypress|playwright|selenium|selenium webdriver|puppeteer|webdriverio|testcafe|nightwatch.js|
protractor|katalon|katalon studio|testim|mabl|ghost inspector|appium|xcuitest|earlgrey|robotium|uiautomator|
codeceptjs|taiko|serenity bdd|testrigor|reflect.run|rainforest qa|qa wolf|browserstack|sauce labs|saucelabs|
lambdatest|aws device farm|firebase test lab|kobiton|testingbot|headspin""",

"load-testing": """k6|grafana k6|k6 cloud|jmeter|apache jmeter|gatling|locust|artillery.io|wrk|wrk2|apachebench|tsung|
loader.io|blazemeter|neoload|loadrunner|micro focus loadrunner|flood.io|loadninja|ddosify|azure load testing|octoperf|
loadview|nbomber|fortio|ghz|yandex tank|hyperfoil|autocannon""",

"bundler": """webpack|rollup.js|vite|vitejs|esbuild|parceljs|parcel.js|browserify|turbopack|rspack|rsbuild|snowpack|tsup|
microbundle|rolldown|metro bundler|requirejs|systemjs|wmr|tsdown|unbuild|pkgroll|gulp|gruntjs|laravel mix|
webpacker|shakapacker""",

"js-package-manager": """npm|yarn|yarn berry|yarn classic|pnpm|bun|jspm|bower|cnpm|vlt""",

"python-package-manager": """pip|pip3|pipenv|conda|anaconda|miniconda|micromamba|mambaforge|miniforge|pdm|pip-tools|
uv|easy_install|virtualenv|pipx""",

"os-package-manager": """apt-get|dpkg|yum|dnf|pacman|chocolatey|winget|flatpak|snapcraft|nixpkgs|nix package manager|
macports|linuxbrew|zypper|portage|pkgsrc|guix|xbps|opkg|slackpkg|appimage|ninite""",

"js-framework": """react.js|reactjs|vue|vue.js|vuejs|angular|angularjs|svelte|solidjs|solid.js|preact|ember.js|emberjs|
backbone.js|lit-element|alpine.js|alpinejs|htmx|qwik|stenciljs|mithril.js|infernojs|knockout.js|knockoutjs|aurelia|
jquery|next.js|nextjs|nuxt|nuxt.js|remix.run|sveltekit|gatsby|astro|solidstart|redwoodjs|blitz.js|qwik city|
tanstack start|react router|analogjs|marko.js|hotwire|dojo toolkit|extjs|sencha ext js|meteor.js""",

"backend-framework": """django|flask|fastapi|rails|ruby on rails|express.js|expressjs|koa.js|koajs|nestjs|nest.js|fastify|
hapi.js|hapijs|laravel|symfony|spring boot|spring framework|spring mvc|asp.net|asp.net core|asp.net mvc|gin-gonic|
gofiber|actix-web|actix|axum|rocket.rs|phoenix framework|hanami|micronaut|quarkus|dropwizard|vert.x|ktor|
play framework|sails.js|adonisjs|hono|aiohttp|starlette|sanic|cakephp|codeigniter|yii|yii2|feathersjs|
django rest framework|litestar|yesod|beego|gorilla mux|javalin|helidon|apache struts|grails|padrino|sinatra|
encore.dev|elysiajs|slim framework|laminas|zend framework|phalcon""",

"orm": """sqlalchemy|django orm|prisma|typeorm|sequelize|drizzle orm|mikro-orm|mikroorm|knex|knex.js|objection.js|
activerecord|active record|hibernate orm|jpa|mybatis|jooq|entity framework|entity framework core|ef core|efcore|gorm|
sqlboiler|sea-orm|peewee|tortoise orm|pony orm|doctrine orm|ecto|sqlx|bookshelf.js|kysely|ormlite|greendao|
nhibernate|linq to sql|sqlmodel|piccolo orm|eloquent orm|sqlc|jdbi|spring data jpa|ebean|rom-rb""",

"state-management": """redux|redux toolkit|mobx|zustand|recoil|jotai|xstate|vuex|pinia|ngrx|ngxs|valtio|effector|
mobx-state-tree|tanstack query|react query|swr|apollo client|urql|rtk query|nanostores|legend-state|easy-peasy|
unstated|hookstate|preact signals|redux-saga|redux-thunk|redux-observable|overmind|constate|riverpod""",

"css-ui-library": """tailwind|tailwindcss|bulma|styled-components|sass|scss|css modules|postcss|vanilla-extract|unocss|
windi css|pure.css|tachyons|panda css|linaria|jss|stylex|open props|pico.css|spectre.css|twitter bootstrap|
bootstrap css|material ui|mui|chakra ui|ant design|antd|shadcn/ui|shadcn|radix ui|mantine|semantic ui|
fomantic ui|blueprintjs|react-bootstrap|vuetify|quasar framework|element ui|element plus|primereact|primevue|primeng|
angular material|fluent ui|carbon design system|daisyui|nextui|heroui|materialize css|tamagui|gluestack|nativebase|
react native paper|kendo ui|devextreme|ark ui|park ui|flowbite|preline|lesscss""",

"mobile-cross-platform": """react native|flutter|xamarin|xamarin.forms|.net maui|ionic|cordova|apache cordova|phonegap|
capacitorjs|ionic capacitor|nativescript|kotlin multiplatform|compose multiplatform|titanium sdk|appcelerator|
sencha touch|framework7|onsen ui|uno platform|codename one|tabris.js""",

"mobile-distribution": """testflight|app center|appcenter|visual studio app center|firebase app distribution|hockeyapp|
diawi|installr|applivery|testfairy|play console|google play console|app store connect|google play internal testing|
play store|appetize.io|betafamily|ubertesters|appaloosa|eas update|codepush|shorebird|amazon appstore|
galaxy store|huawei appgallery|f-droid|microsoft store""",

"ci-cd": """jenkins|github actions|github-actions|gitlab ci|gitlab-ci|gitlab ci/cd|circleci|travis ci|travis-ci|travisci|
teamcity|atlassian bamboo|bitbucket pipelines|azure pipelines|azure devops pipelines|buildkite|drone ci|concourse ci|
woodpecker ci|semaphore ci|semaphoreci|appveyor|codeship|cirrus ci|buddy.works|gocd|codebuild|aws codebuild|
aws codepipeline|codepipeline|google cloud build|tekton|spinnaker|argo cd|argocd|fluxcd|flux cd|
octopus deploy|harness ci|harness cd|codedeploy|aws codedeploy|keptn|werf|deployhq|bitrise|codemagic|xcode cloud|
wercker|jenkins x|gitea actions|forgejo actions|sourcehut builds|google cloud deploy|depot.dev|dagger.io|
garden.io|codefresh|cloudbees|screwdriver cd|zuul ci|buildbot""",

"container-registry": """docker hub|dockerhub|ecr|amazon ecr|aws ecr|gcr|google container registry|
google artifact registry|acr|azure container registry|quay|quay.io|red hat quay|harbor registry|goharbor|ghcr|ghcr.io|
github container registry|gitlab container registry|docker registry|distribution registry|zot|jfrog artifactory|
artifactory|sonatype nexus|nexus repository|digitalocean container registry|scaleway container registry|
oracle container registry|ocir|alibaba container registry|ibm cloud container registry|cloudsmith|packagecloud|
gemfury|github packages|aws codeartifact|codeartifact|azure artifacts|verdaccio|proget|gitlab package registry|
ttl.sh|chainguard registry""",

"iac": """terraform|opentofu|pulumi|cloudformation|aws cloudformation|aws cdk|cdktf|cdk for terraform|
azure resource manager|arm templates|azure bicep|google deployment manager|crossplane|serverless framework|aws sam|
terragrunt|terraform cloud|hcp terraform|spacelift|env0|scalr|winglang|cdk8s|sst.dev|terramate|terraformer|
pulumi cloud""",

"config-management": """ansible|saltstack|salt stack|chef infra|puppet enterprise|puppet bolt|cfengine|pyinfra|
ansible tower|awx|ansible automation platform|capistrano|deployer php|nixops|colmena|cdist|bcfg2|itamae|
aws systems manager|aws opsworks|opsworks""",

"container-orchestration": """kubernetes|k8s|docker swarm|hashicorp nomad|mesos|apache mesos|openshift|red hat openshift|
rancher|k3s|k0s|microk8s|minikube|k3d|eks|gke|aks|amazon eks|google kubernetes engine|azure kubernetes service|ecs|
amazon ecs|fargate|aws fargate|cloud run|google cloud run|azure container apps|azure container instances|doks|
digitalocean kubernetes|linode kubernetes engine|tanzu|vmware tanzu|docker compose|docker-compose|gke autopilot|
eks anywhere|anthos|okd|kubesphere|rke2|rke|kubeadm|kops|kubespray""",

"container-runtime": """docker|docker engine|docker desktop|podman|containerd|cri-o|crio|rkt|lxc|lxd|incus|colima|
rancher desktop|orbstack|buildah|kaniko|buildkit|docker buildx|buildpacks|cloud native buildpacks|paketo|nixpacks|
runc|crun|gvisor|kata containers|apptainer|youki|sysbox""",

"paas": """heroku|fly.io|render.com|railway.app|digitalocean app platform|app engine|google app engine|
elastic beanstalk|aws elastic beanstalk|azure app service|dokku|coolify|caprover|cloud foundry|platform.sh|upsun|
northflank|qovery|koyeb|zeabur|scalingo|clever cloud|aptible|engine yard|pythonanywhere|vercel|netlify|
cloudflare pages|github pages|gitlab pages|aws amplify|amplify hosting|firebase hosting|surge.sh|
azure static web apps|deno deploy|neocities|aws app runner|app runner|aws lightsail|lightsail|pantheon.io|wp engine|
kinsta|piku|porter.run|sevalla|dokploy|kubero|glitch.com""",

"serverless": """aws lambda|google cloud functions|firebase functions|cloud functions for firebase|
azure functions|cloudflare workers|vercel functions|netlify functions|openfaas|knative|kubeless|openwhisk|
apache openwhisk|deno deploy|fastly compute|fastly compute@edge|lambda@edge|cloudfront functions|
supabase edge functions|ibm cloud functions|alibaba function compute|scaleway functions|fermyon spin|fermyon cloud|
vercel edge functions|netlify edge functions|nuclio|fn project|val town|cloud run|google cloud run|firebase|supabase|
appwrite|parse server|pocketbase|nhost|back4app|backendless|kinvey|8base""",

"cloud": """aws|amazon web services|gcp|google cloud|google cloud platform|azure|microsoft azure|digitalocean|linode|
akamai cloud|vultr|hetzner|hetzner cloud|ovh|ovhcloud|scaleway|ibm cloud|oracle cloud|oracle cloud infrastructure|
alibaba cloud|aliyun|tencent cloud|huawei cloud|upcloud|exoscale|rackspace|kamatera|equinix metal|contabo|ionos|
yandex cloud|civo|lambda labs|lambda cloud|coreweave|runpod|vast.ai|paperspace|crusoe cloud|jarvislabs|
genesis cloud|fluidstack|tensordock|cloudsigma|openstack|stackit|open telekom cloud|ionos cloud|hostinger|dreamhost|
liquid web|vk cloud|naver cloud""",

"vpn-zero-trust": """tailscale|wireguard|openvpn|zerotier|cloudflare access|cloudflare zero trust|cloudflare warp|
cloudflare tunnel|cloudflared|zscaler|netskope|twingate|pritunl|perimeter 81|nordlayer|globalprotect|
palo alto globalprotect|cisco anyconnect|anyconnect|cisco secure client|pulse secure|ivanti connect secure|
forticlient|headscale|netbird|hashicorp boundary|strongdm|banyan security|openconnect|expressvpn|nordvpn|protonvpn|
mullvad|surfshark|sonicwall netextender|strongswan|softether|tunnelblick|aws client vpn|
azure vpn gateway|google cloud vpn|pomerium|openziti|firezone|defguard|innernet""",

"identity-sso": """okta|auth0|azure ad|azure active directory|entra id|microsoft entra id|microsoft entra|
active directory|onelogin|ping identity|pingfederate|pingone|keycloak|aws cognito|amazon cognito|cognito|
firebase auth|firebase authentication|clerk.dev|clerk.com|jumpcloud|fusionauth|workos|stytch|supertokens|ory kratos|
ory hydra|authentik|authelia|gluu|duo security|cisco duo|descope|frontegg|kinde|logto|zitadel|casdoor|
google identity platform|aws iam identity center|aws sso|cyberark identity|forgerock|sailpoint|openam|
dex idp|nextauth|next-auth|auth.js|passport.js|lucia auth|magic.link|hanko""",

"password-manager": """1password|lastpass|bitwarden|dashlane|keepass|keepassxc|keepassdx|keeper security|
keeper password manager|nordpass|roboform|enpass|proton pass|icloud keychain|apple passwords|passbolt|psono|
zoho vault|vaultwarden|gopass|teampassword|passwordstate|sticky password|norton password manager|
google password manager|chrome password manager|lockwise|padloc""",

"secret-manager": """hashicorp vault|openbao|aws secrets manager|azure key vault|gcp secret manager|google secret manager|
doppler|infisical|1password secrets automation|1password connect|akeyless|cyberark conjur|conjur|mozilla sops|
sealed secrets|sealed-secrets|bitnami sealed secrets|external secrets operator|external-secrets|
bitwarden secrets manager|aws parameter store|ssm parameter store|parameter store|berglas|keywhiz|git-crypt|envkey|
dotenv vault|dotenvx|keeper secrets manager|thycotic secret server|delinea secret server|phase.dev|
hcp vault secrets|kubernetes secrets|transcrypt|secrethub""",

"feature-flags": """launchdarkly|split.io|flagsmith|configcat|optimizely|growthbook|statsig|flipt|firebase remote config|
devcycle|harness feature flags|cloudbees feature management|rollout.io|flagr|featbit|eppo|aws appconfig|
azure app configuration|vwo|google optimize|ab tasty|abtasty|convert.com|kameleoon|adobe target|hypertune|tggl|
openfeature|go-feature-flag|togglz|ff4j|prefab.cloud|amplitude experiment|dynamic yield""",

"editor-ide": """vscode|vs code|visual studio code|visual studio|intellij|intellij idea|pycharm|webstorm|goland|
jetbrains rider|clion|phpstorm|rubymine|rustrover|android studio|xcode|eclipse ide|netbeans|apache netbeans|vim|vi|
neovim|nvim|emacs|gnu emacs|spacemacs|doom emacs|sublime text|zed editor|notepad++|textmate|bbedit|jetbrains fleet|
vscodium|code::blocks|qt creator|spyder|rstudio|positron|thonny|kakoune|helix editor|lapce|gedit|geany|ultraedit|
komodo ide|atom editor|appcode|dataspell|github codespaces|codespaces|gitpod|aws cloud9|cloud9|stackblitz|
codesandbox|replit|project idx|firebase studio|jupyter|jupyterlab|jupyter notebook|google colab|deepnote""",

"shell": """bash|zsh|fish shell|powershell|pwsh|windows powershell|powershell core|ksh|korn shell|tcsh|csh|nushell|
xonsh|cmd.exe|busybox|oil shell|bourne shell|z shell|git bash|msys2|cygwin|mksh""",

"terminal": """iterm2|iterm|windows terminal|alacritty|kitty terminal|wezterm|gnome terminal|konsole|terminal.app|
macos terminal|hyper terminal|hyper.js|warp terminal|tilix|xterm|urxvt|rxvt|ghostty|conemu|cmder|mintty|putty|
mobaxterm|termius|guake|yakuake|foot terminal|xfce4-terminal|rio terminal|tabby terminal|wave terminal|securecrt|
qterminal|lxterminal|cool-retro-term|ptyxis""",

"desktop-os": """microsoft windows|windows 7|windows 8|windows 10|windows 11|windows xp|macos|mac os|mac os x|
osx|os x|macos big sur|macos monterey|macos ventura|macos sonoma|macos sequoia|macos tahoe|linux|chromeos|chrome os|
chromeos flex|freebsd|openbsd|netbsd|dragonflybsd|ghostbsd|reactos|haiku os""",

"linux-distro": """ubuntu|debian|fedora|centos|centos stream|rhel|red hat|red hat enterprise linux|rocky linux|
almalinux|alma linux|arch linux|archlinux|manjaro|linux mint|opensuse|opensuse leap|opensuse tumbleweed|suse|sles|
gentoo|alpine linux|nixos|amazon linux|amazon linux 2|amazon linux 2023|oracle linux|kali|kali linux|pop!_os|pop os|
elementary os|void linux|slackware|endeavouros|zorin os|clear linux|flatcar|flatcar container linux|
container-optimized os|bottlerocket|talos linux|raspberry pi os|raspbian|ubuntu server|kubuntu|xubuntu|lubuntu|
mx linux|deepin|garuda linux|steamos|photon os|wolfi|coreos|fedora coreos|scientific linux|parrot os|qubes os|solus|
mageia|bazzite|nobara|cachyos|asahi linux|openmandriva|ubuntu core""",

"browser": """chrome|google chrome|chromium|firefox|mozilla firefox|safari|mobile safari|microsoft edge|ms edge|
brave browser|opera browser|opera gx|vivaldi|arc browser|samsung internet|internet explorer|ie11|
firefox developer edition|chrome canary|firefox nightly|safari technology preview|tor browser|duckduckgo browser|
yandex browser|uc browser|waterfox|librewolf|orion browser|zen browser|mullvad browser|chrome for android|
firefox focus|dia browser|pale moon|seamonkey|qutebrowser|gnome web|amazon silk|kiwi browser""",

"phone": """iphone|iphone se|iphone 12|iphone 13|iphone 14|iphone 15|iphone 16|iphone 17|iphone pro|iphone pro max|
iphone mini|google pixel|pixel 6|pixel 7|pixel 7a|pixel 8|pixel 8a|pixel 9|pixel 10|pixel fold|samsung galaxy|
galaxy s21|galaxy s22|galaxy s23|galaxy s24|galaxy s25|galaxy a54|galaxy z fold|galaxy z flip|galaxy note|oneplus|
xiaomi|redmi|huawei|motorola|moto g|nokia|oppo|vivo|realme|sony xperia|xperia|nothing phone|fairphone|asus zenfone|
rog phone|tecno|infinix|zte|htc""",

"vcs-hosting": """github|github.com|github enterprise|gitlab|gitlab.com|gitlab ce|gitlab ee|bitbucket|bitbucket cloud|
bitbucket server|bitbucket data center|azure repos|aws codecommit|codecommit|gitea|gogs|forgejo|codeberg|sourcehut|
sr.ht|sourceforge|launchpad.net|gitee|google cloud source repositories|perforce|helix core|plastic scm|
unity version control|kallithea|rhodecode|onedev|gitbucket|radicle""",

"code-review": """gerrit|phabricator|phorge|review board|graphite.dev|codestream|upsource|coderabbit|
github pull requests|gitlab merge requests|reviewpad|sourcery|greptile|qodo merge|pr-agent|bito|what the diff|
gitstream|pullapprove|helix swarm|rietveld""",

"dependency-bot": """dependabot|renovatebot|renovate bot|mend renovate|whitesource renovate|greenkeeper|depfu|pyup|
pyup.io|scala steward|updatecli|snyk|npm-check-updates|dependencies.io""",

"static-site-generator": """jekyll|gohugo|gatsby|eleventy|11ty|hexo|docusaurus|mkdocs|material for mkdocs|sphinx|
vuepress|vitepress|astro|zola|nextra|mdbook|docsify|gridsome|scully|metalsmith|nanoc|bridgetown|publii|
astro starlight|octopress|antora|lektor|hakyll|elder.js|read the docs|readthedocs|mintlify|docfx""",

"cms": """wordpress|drupal|joomla|contentful|strapi|sanity.io|sanity studio|ghost cms|prismic|storyblok|directus|
payload cms|payloadcms|keystonejs|craft cms|umbraco|sitecore|adobe experience manager|aem|contentstack|hygraph|
graphcms|datocms|dato cms|buttercms|butter cms|netlify cms|decap cms|tinacms|kentico|hubspot cms|webflow|wix|
squarespace|typo3|concrete5|concrete cms|statamic|october cms|cockpit cms|agility cms|builder.io|plasmic|
magnolia cms|liferay|acquia|dotcms|craftercms|cloudcannon|kirby cms|grav cms|wagtail|django cms|plone|
silverstripe|processwire|sulu cms|apostrophecms|squidex|prepr|cosmic js|keystatic|outstatic""",

"web-server-proxy": """nginx|nginx plus|nginx unit|apache httpd|httpd|apache http server|apache2|caddy|haproxy|
envoy proxy|traefik|lighttpd|iis|microsoft iis|varnish cache|squid proxy|openresty|pingora|litespeed|openlitespeed|
tengine|h2o server|sozu|yarp|tinyproxy|ingress-nginx|nginx ingress controller|emissary-ingress|
haproxy ingress|kong ingress controller|aws load balancer controller|gloo edge|aws alb|alb|elb|nlb|
elastic load balancer|google cloud load balancing|
azure load balancer|azure application gateway|f5 big-ip|big-ip|citrix adc|netscaler|metallb|kemp loadmaster|
keepalived|katran""",

"api-gateway": """kong|kong gateway|apigee|google apigee|aws api gateway|amazon api gateway|azure api management|apim|
tyk|tyk gateway|krakend|gravitee|wso2 api manager|mulesoft|mulesoft anypoint|3scale|red hat 3scale|express gateway|
zuul|netflix zuul|spring cloud gateway|apisix|apache apisix|gloo gateway|zuplo|fusio|ambassador edge stack|
emissary-ingress|envoy gateway|kgateway|ocelot|google cloud endpoints|api umbrella|axway|
ibm api connect|traefik hub|kuadrant|unkey""",

"service-mesh": """istio|istio ambient|linkerd|linkerd2|consul|consul connect|hashicorp consul|kuma|open service mesh|
aws app mesh|app mesh|cilium service mesh|traefik mesh|maesh|nginx service mesh|anthos service mesh|
cloud service mesh|gloo mesh|kong mesh|aspen mesh|network service mesh|tetrate|greymatter|merbridge""",

"linter-formatter": """eslint|biome|biomejs|jshint|jslint|tslint|jscs|stylelint|oxlint|standardjs|dprint|ruff|
flake8|pylint|pycodestyle|pyflakes|pydocstyle|pylama|prospector|isort|yapf|autopep8|black formatter|rubocop|
standardrb|rufo|golangci-lint|gofmt|gofumpt|goimports|staticcheck|go vet|cargo clippy|rustfmt|clang-format|
clang-tidy|cpplint|cppcheck|ktlint|ktfmt|detekt|checkstyle|spotbugs|findbugs|errorprone|
google-java-format|swiftlint|swiftformat|shellcheck|shfmt|hadolint|markdownlint|yamllint|tflint|sqlfluff|
php-cs-fixer|phpcs|php_codesniffer|credo|hlint|ormolu|scalafmt|scalafix|dotnet format|stylecop|roslynator|
sonarlint|htmlhint|stylua|luacheck|elm-format|megalinter|mega-linter|super-linter|trunk check""",

"type-checker": """mypy|pyright|pyre|pyre-check|pytype|pylance|basedpyright|pyrefly|zuban|flowtype|tsc|sorbet|
typeprof|phpstan|dialyzer|gradualizer|closure compiler""",

"transactional-email": """sendgrid|twilio sendgrid|mailgun|postmark|mandrill|mailchimp transactional|sparkpost|mailjet|
amazon ses|aws ses|ses|brevo|sendinblue|elastic email|smtp2go|mailersend|sendpulse|resend.com|loops.so|socketlabs|
pepipost|netcore email|mailtrap|zeptomail|azure communication services|customer.io|postmarkapp""",

"payment": """stripe|paypal|braintree|adyen|checkout.com|authorize.net|worldpay|klarna|mollie|razorpay|paystack|
flutterwave|mercado pago|payu|2checkout|verifone|lemon squeezy|lemonsqueezy|gocardless|amazon pay|alipay|wechat pay|
afterpay|sezzle|nmi|global payments|cybersource|elavon|fiserv|first data|bluesnap|nuvei|rapyd|paysafe|payoneer|
skrill|ccavenue|xendit|midtrans|iyzico|yookassa|cashfree|paytm|dwolla|chargebee|recurly|chargify|maxio|zuora|
stripe billing|revenuecat|fastspring|polar.sh|payfast|ebanx|dlocal|pagseguro|paymentwall|helcim""",

"dns": """route53|route 53|amazon route 53|aws route 53|cloudflare|cloudflare dns|google cloud dns|azure dns|
ns1|dnsimple|dnsmadeeasy|dns made easy|ultradns|dyn dns|dyndns|godaddy|namecheap|gandi|porkbun|name.com|
google domains|squarespace domains|dynadot|cloudflare registrar|network solutions|tucows|enom|ionos|namesilo|bind9|
powerdns|coredns|dnsmasq|knot dns|easydns|constellix|akamai edge dns|he.net|hurricane electric dns|desec|bunny dns|
digitalocean dns|hetzner dns|external-dns|technitium""",

"cdn": """cloudflare|akamai|fastly|cloudfront|amazon cloudfront|aws cloudfront|azure cdn|azure front door|
google cloud cdn|bunny.net|bunnycdn|keycdn|stackpath|edgio|limelight networks|cdn77|jsdelivr|unpkg|cdnjs|
imperva|gcore|edgecast|verizon edgecast|maxcdn|cloudinary|imgix|imagekit|uploadcare|cloudflare images|thumbor|
imgproxy|sirv|filestack|transloadit|medianova|cachefly|belugacdn|quic.cloud|alibaba cloud cdn|esm.sh|skypack|
vercel edge network""",

"object-storage": """s3|amazon s3|aws s3|gcs|google cloud storage|azure blob storage|azure blob|backblaze b2|backblaze|
cloudflare r2|minio|min.io|digitalocean spaces|linode object storage|scaleway object storage|storj|seaweedfs|
ovh object storage|ibm cloud object storage|oracle object storage|alibaba oss|tencent cos|hetzner object storage|ceph|
ceph rgw|glusterfs|openstack swift|idrive e2|filebase|uploadthing|vercel blob|supabase storage|firebase storage|
cloud storage for firebase""",

"sms-voice": """twilio|vonage|nexmo|plivo|messagebird|sinch|telnyx|bandwidth.com|amazon sns|aws pinpoint|amazon pinpoint|
infobip|textmagic|clicksend|esendex|signalwire|africa's talking|msg91|kaleyra|aws end user messaging|
azure communication services|textlocal|bulksms|gupshup|8x8|aircall|twilio verify|exotel|d7 networks|cm.com|
textbelt""",
}


def parse(s):
    return [x.strip() for x in s.replace("\n", "").split("|") if x.strip()]


if __name__ == "__main__":
    out = {}
    for cat, s in K.items():
        names = parse(s)
        lowered = [n.lower() for n in names]
        assert lowered == names, [n for n in names if n != n.lower()]
        dupes = {n for n in names if names.count(n) > 1}
        if dupes:
            print("dup within", cat, sorted(dupes))
        out[cat] = sorted(set(names))
    p = pathlib.Path(__file__).resolve().parent.parent.parent / "crates/subcog-core/src/entities/kinds.json"
    p.write_text(json.dumps(out, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    print(len(out), "categories", sum(map(len, out.values())), "names")

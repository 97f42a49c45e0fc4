#!/bin/sh
# Writes the secret files docker-compose.yml mounts (compose `secrets:`), one value per file, into
# ./secrets (or the directory given as HUSH_SECRETS_DIR), and never overwrites one that exists:
# running it again after an upgrade adds only what is new. Keep a copy of the directory somewhere
# safe (docs/operations.md): losing a master key makes that service's data unreadable.
#
#   infra/compose/init-secrets.sh smtp://user:password@smtp.example.com:587
#   infra/compose/init-secrets.sh --mail-catcher
# --mail-catcher writes no SMTP URL: docker-compose.mailpit.yml supplies its catcher's (testing only).
set -eu

dir=${HUSH_SECRETS_DIR:-./secrets}
smtp=${1:-}
if [ -z "$smtp" ] && [ ! -s "$dir/smtp_url" ]; then
  # Mail goes to a real relay by default: one-time links in a catcher are readable without login.
  echo "init-secrets: give your SMTP relay's URL (smtp://user:password@host:587 or smtps://host:465)," >&2
  echo "or --mail-catcher to run with the mail catcher of docker-compose.mailpit.yml (testing only)." >&2
  exit 2
fi

umask 077
mkdir -p "$dir"
chmod 700 "$dir"

# The files themselves are world-readable inside a private directory: compose bind-mounts each file
# as it is, and the services run as uid 1000 and PostgreSQL as uid 999, not as the host's owner.
put() {
  if [ -s "$dir/$1" ]; then return 0; fi
  printf '%s\n' "$2" > "$dir/$1"
  chmod 644 "$dir/$1"
  echo "wrote $dir/$1"
}
random() { openssl rand -hex "$1"; }

put identity_master_key "$(random 32)"
put secrets_master_key "$(random 32)"
put mail_sealing_key "$(random 32)"
put link_key_sealing_key "$(random 32)"
put secrets_web_client_secret "$(random 32)"
put admin_client_secret "$(random 32)"
put handover_client_secret "$(random 32)"
put postgres_password "$(random 24)"
# One role per service, owner of its own database only (infra/compose/postgres-init.sh reads the
# role, password and database from these URLs when the volume is first initialised).
put identity_database_url "postgres://hush_identity:$(random 24)@postgres:5432/hush_identity"
put secrets_database_url "postgres://hush_secrets:$(random 24)@postgres:5432/hush_secrets"
case "$smtp" in
  '') ;;
  --mail-catcher) ;;
  smtp://* | smtps://*) put smtp_url "$smtp" ;;
  *)
    echo "init-secrets: the SMTP URL must start with smtp:// or smtps://" >&2
    exit 2
    ;;
esac

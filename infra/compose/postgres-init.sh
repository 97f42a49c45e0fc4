#!/bin/bash
# Runs once, when the postgres volume is first initialised (/docker-entrypoint-initdb.d), as the
# superuser over the init server's socket. For each service it creates the role and the database
# named in that service's DATABASE_URL secret: the role owns its database (so its migrations run
# as that role) and nothing else; no other non-superuser may connect to that database.
# test/infra runs this very script against a scratch server with unique names.
set -euo pipefail

dir=${HUSH_SECRETS_DIR:-/run/secrets}

for service in identity secrets; do
  url=$(tr -d '\r\n' < "$dir/${service}_database_url")
  rest=${url#*://}
  userinfo=${rest%%@*}
  role=${userinfo%%:*}
  password=${userinfo#*:}
  path=${rest#*/}
  database=${path%%\?*}
  # URL-decoded (%xx), as node-postgres decodes it.
  password=$(printf '%b' "${password//%/\\x}")
  if [[ ! $role =~ ^[a-z_][a-z0-9_]*$ || ! $database =~ ^[a-z_][a-z0-9_]*$ || -z $password || $userinfo != *:* ]]; then
    echo "postgres-init: ${service}_database_url must be postgres://<role>:<password>@host:port/<database> (lower-case names)" >&2
    exit 1
  fi
  psql -v ON_ERROR_STOP=1 --no-psqlrc --quiet --username "${POSTGRES_USER:-postgres}" --dbname postgres \
    -v role="$role" -v password="$password" -v database="$database" <<'SQL'
CREATE ROLE :"role" LOGIN PASSWORD :'password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION;
CREATE DATABASE :"database" OWNER :"role";
-- PUBLIC may connect to a new database by default: only its owner (and superusers) may here.
REVOKE ALL ON DATABASE :"database" FROM PUBLIC;
\connect :"database"
-- PostgreSQL 15+: schema public belongs to pg_database_owner (the role); PUBLIC keeps no rights on it.
REVOKE ALL ON SCHEMA public FROM PUBLIC;
SQL
  echo "postgres-init: role ${role} owns database ${database}"
done

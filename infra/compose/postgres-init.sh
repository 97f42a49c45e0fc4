#!/bin/bash
# Runs once, when the postgres volume is first initialised (/docker-entrypoint-initdb.d), as the
# superuser over the init server's socket. For each service it creates the role and the database
# named in that service's DATABASE_URL secret: the role owns its database (so its migrations run
# as that role) and nothing else; no other non-superuser may connect to that database.
# Run again, it changes nothing; on a volume made before per-service roles it creates them and
# hands each database and its objects to its role (docs/operations.md, "Upgrading"):
#   docker compose exec postgres /docker-entrypoint-initdb.d/10-service-databases.sh
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
SELECT format('CREATE ROLE %I LOGIN PASSWORD %L NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION', :'role', :'password')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'role') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'database', :'role')
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'database') \gexec
ALTER DATABASE :"database" OWNER TO :"role";
-- PUBLIC may connect to a new database by default: only its owner (and superusers) may here.
REVOKE ALL ON DATABASE :"database" FROM PUBLIC;
\connect :"database"
-- PostgreSQL 15+: schema public belongs to pg_database_owner (the role); PUBLIC keeps no rights on it.
REVOKE ALL ON SCHEMA public FROM PUBLIC;
-- A database that existed before (one made when both services connected as the superuser): its
-- objects pass to the role, tables first (their sequences follow), then what is left.
SELECT format('ALTER TABLE %I OWNER TO %I', c.relname, :'role') FROM pg_class c
 WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relowner <> :'role'::regrole \gexec
SELECT format('ALTER SEQUENCE %I OWNER TO %I', c.relname, :'role') FROM pg_class c
 WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'S' AND c.relowner <> :'role'::regrole \gexec
SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, :'role') FROM pg_proc p
 WHERE p.pronamespace = 'public'::regnamespace AND p.proowner <> :'role'::regrole \gexec
SQL
  echo "postgres-init: role ${role} owns database ${database}"
done

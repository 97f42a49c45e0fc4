-- Runs once, when the postgres volume is first initialised (/docker-entrypoint-initdb.d).
-- One database per service: each service owns its schema and runs its own migrations
-- (the identity-migrate and secrets-migrate services in docker-compose.yml).
CREATE DATABASE hush_identity;
CREATE DATABASE hush_secrets;

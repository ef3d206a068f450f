-- voiceplane's database layout: for each service, a schema owned by its migration role (<schema>_migrator, which
-- Flyway runs as, once per rollout) and a service role (<schema>_service, which the running service uses) that
-- may read and write rows but cannot create, alter or drop anything. Idempotent: safe to run again.
--
-- CloudNativePG runs it once when it creates the cluster (components/cloudnative-pg); on an external PostgreSQL,
-- run it once as an administrator in the database voiceplane, then give each role its password:
--   psql "$ADMIN_URL/voiceplane" -f deploy/k8s/components/cloudnative-pg/roles-and-schemas.sql
--   psql "$ADMIN_URL/voiceplane" -c "ALTER ROLE credential_service LOGIN PASSWORD '...'"   (and the others)

-- assistant-service
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'assistant_migrator') THEN CREATE ROLE assistant_migrator NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'assistant_service') THEN CREATE ROLE assistant_service NOLOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS assistant AUTHORIZATION assistant_migrator;
GRANT USAGE ON SCHEMA assistant TO assistant_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA assistant TO assistant_service;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA assistant TO assistant_service;
ALTER DEFAULT PRIVILEGES FOR ROLE assistant_migrator IN SCHEMA assistant GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO assistant_service;
ALTER DEFAULT PRIVILEGES FOR ROLE assistant_migrator IN SCHEMA assistant GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO assistant_service;
ALTER ROLE assistant_migrator SET search_path = assistant;
ALTER ROLE assistant_service SET search_path = assistant;

-- call-service
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'call_migrator') THEN CREATE ROLE call_migrator NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'call_service') THEN CREATE ROLE call_service NOLOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS call AUTHORIZATION call_migrator;
GRANT USAGE ON SCHEMA call TO call_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA call TO call_service;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA call TO call_service;
ALTER DEFAULT PRIVILEGES FOR ROLE call_migrator IN SCHEMA call GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO call_service;
ALTER DEFAULT PRIVILEGES FOR ROLE call_migrator IN SCHEMA call GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO call_service;
ALTER ROLE call_migrator SET search_path = call;
ALTER ROLE call_service SET search_path = call;

-- telephony-service
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'telephony_migrator') THEN CREATE ROLE telephony_migrator NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'telephony_service') THEN CREATE ROLE telephony_service NOLOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS telephony AUTHORIZATION telephony_migrator;
GRANT USAGE ON SCHEMA telephony TO telephony_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA telephony TO telephony_service;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA telephony TO telephony_service;
ALTER DEFAULT PRIVILEGES FOR ROLE telephony_migrator IN SCHEMA telephony GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO telephony_service;
ALTER DEFAULT PRIVILEGES FOR ROLE telephony_migrator IN SCHEMA telephony GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO telephony_service;
ALTER ROLE telephony_migrator SET search_path = telephony;
ALTER ROLE telephony_service SET search_path = telephony;

-- file-service
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'file_migrator') THEN CREATE ROLE file_migrator NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'file_service') THEN CREATE ROLE file_service NOLOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS file AUTHORIZATION file_migrator;
GRANT USAGE ON SCHEMA file TO file_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA file TO file_service;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA file TO file_service;
ALTER DEFAULT PRIVILEGES FOR ROLE file_migrator IN SCHEMA file GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO file_service;
ALTER DEFAULT PRIVILEGES FOR ROLE file_migrator IN SCHEMA file GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO file_service;
ALTER ROLE file_migrator SET search_path = file;
ALTER ROLE file_service SET search_path = file;

-- credential-service
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'credential_migrator') THEN CREATE ROLE credential_migrator NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'credential_service') THEN CREATE ROLE credential_service NOLOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS credential AUTHORIZATION credential_migrator;
GRANT USAGE ON SCHEMA credential TO credential_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA credential TO credential_service;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA credential TO credential_service;
ALTER DEFAULT PRIVILEGES FOR ROLE credential_migrator IN SCHEMA credential GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO credential_service;
ALTER DEFAULT PRIVILEGES FOR ROLE credential_migrator IN SCHEMA credential GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO credential_service;
ALTER ROLE credential_migrator SET search_path = credential;
ALTER ROLE credential_service SET search_path = credential;

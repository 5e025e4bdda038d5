-- Session cache invalidation across processes (issue 17, docs/decisions/026-session-path-and-install.md).
-- Every change of a users row and every deletion of a sessions row (or a change of its user or expiry)
-- notifies dewy_session_cache with 'u:<user id>' when its transaction commits, whoever writes it, so each
-- API process drops that user's cached sessions. PostgreSQL delivers one notification per distinct
-- payload per transaction, so a purge of many sessions sends one per user.
CREATE OR REPLACE FUNCTION dewy_session_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('dewy_session_cache', 'u:' || OLD.id);
  ELSE
    PERFORM pg_notify('dewy_session_cache', 'u:' || OLD.user_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_session_cache_update AFTER UPDATE ON users FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION dewy_session_cache_notify();
--> statement-breakpoint
CREATE TRIGGER users_session_cache_delete AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION dewy_session_cache_notify();
--> statement-breakpoint
CREATE TRIGGER sessions_session_cache_delete AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION dewy_session_cache_notify();
--> statement-breakpoint
CREATE TRIGGER sessions_session_cache_update AFTER UPDATE OF user_id, expires_at ON sessions FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.expires_at IS DISTINCT FROM NEW.expires_at) EXECUTE FUNCTION dewy_session_cache_notify();

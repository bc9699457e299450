CREATE INDEX atc_sessions_open_idx ON atc_sessions (last_seen) WHERE ended_at IS NULL;

CREATE INDEX atc_sessions_report_idx ON atc_sessions (last_seen, logon_time, position, cid);

CREATE INDEX atc_sessions_seen_idx ON atc_sessions (last_seen, cid);

CREATE INDEX "audit_log_at_idx" on "audit_log" ("at", "id");

CREATE INDEX "audit_log_target_idx" on "audit_log" ("target", "id");

CREATE INDEX bookings_end_idx ON bookings (deleted, time_end);

CREATE INDEX "bookings_list_idx" on "bookings" ("deleted", "time_start", "id");

CREATE INDEX bookings_live_position_end_idx ON bookings (position_id, time_end) WHERE deleted = 0;

CREATE INDEX division_cpt_waiting_idx ON division_cpt (examination_id) WHERE queued_at IS NULL;

CREATE UNIQUE INDEX division_requests_cpt_idx ON division_requests (about) WHERE about LIKE 'cpt:%';

CREATE INDEX division_requests_open_idx ON division_requests (state, member_cid, id);

CREATE INDEX endorsements_expiry_idx ON endorsements (valid_to)
    WHERE expiry_published_at IS NULL AND valid_to IS NOT NULL AND revoked = 0;

CREATE INDEX "endorsements_type_idx" on "endorsements" ("type", "user_id");

CREATE INDEX endorsements_user_from_idx ON endorsements (user_id, valid_from, id);

CREATE INDEX events_created_at_idx ON events (created_at);

CREATE INDEX feedback_comments_feedback_idx ON feedback_comments (feedback_id, id);

CREATE INDEX feedback_created_idx ON feedback (created_at, id);

CREATE INDEX feedback_sender_idx ON feedback (sender_id, created_at);

CREATE INDEX "idempotency_keys_created_at" on "idempotency_keys" ("created_at");

CREATE INDEX "login_states_created_idx" on "login_states" ("created_at");

CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;

CREATE INDEX network_pushes_due_idx ON network_pushes (next_attempt_at) WHERE status = 'pending';

CREATE INDEX notices_sent_user_idx ON notices_sent (user_id);

CREATE UNIQUE INDEX roles_division_wide_key ON roles (user_id, role) WHERE area_id IS NULL;

CREATE INDEX "sessions_last_seen_idx" on "sessions" ("last_seen_at");

CREATE INDEX "sessions_user_idx" on "sessions" ("user_id");

CREATE INDEX sweatbox_sessions_position_idx ON sweatbox_sessions (position_id, time_start);

CREATE INDEX sweatbox_sessions_time_idx ON sweatbox_sessions (time_start, id);

CREATE INDEX tasks_assignee_idx ON tasks (assignee_id, status);

CREATE INDEX tasks_creator_idx ON tasks (creator_id, created_at);

CREATE INDEX tasks_training_idx ON tasks (training_id);

CREATE INDEX training_attachments_examination_idx ON training_attachments (examination_id) WHERE examination_id IS NOT NULL;

CREATE INDEX training_attachments_report_idx ON training_attachments (report_id) WHERE report_id IS NOT NULL;

CREATE INDEX training_examinations_date_idx ON training_examinations (examination_date);

CREATE INDEX training_examinations_training_idx ON training_examinations (training_id);

CREATE INDEX training_examiners_user_idx ON training_examiners (user_id);

CREATE INDEX training_links_training_idx ON training_links (training_id);

CREATE INDEX training_mentors_user_idx ON training_mentors (user_id);

CREATE INDEX training_reports_training_idx ON training_reports (training_id, report_date);

CREATE INDEX training_timeline_training_idx ON training_timeline (training_id, id);

CREATE INDEX trainings_area_status_idx ON trainings (area_id, status, created_at);

CREATE INDEX "trainings_status_idx" on "trainings" ("status", "user_id");

CREATE INDEX vote_voters_user_idx ON vote_voters (user_id);

CREATE INDEX votes_open_idx ON votes (closed_at, closes_at);

CREATE INDEX webhook_attempts_at_idx ON webhook_attempts (at);

CREATE INDEX webhook_attempts_webhook_idx ON webhook_attempts (webhook_id, id);

CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_seq);

CREATE INDEX webhook_deliveries_open_idx ON webhook_deliveries (webhook_id, id) WHERE status IN ('pending', 'delivering');

CREATE TABLE activity_backfill (
    cid bigint PRIMARY KEY,
    next_offset integer NOT NULL,
    done_at bigint
  );

CREATE TABLE "api_keys" ("id" text primary key, "name" text not null unique, "scope" text not null, "variant" text, "compat" text, "secret_hash" text not null, "created_at" bigint not null, "last_used_at" bigint, "expires_at" bigint, "revoked_at" bigint);

CREATE TABLE "areas" ("id" integer primary key autoincrement, "name" text not null unique);

CREATE TABLE atc_sessions (
    id integer PRIMARY KEY AUTOINCREMENT,
    cid bigint NOT NULL,
    callsign text NOT NULL,
    position text NOT NULL,
    name text,
    frequency text,
    logon_time bigint NOT NULL,
    last_seen bigint NOT NULL,
    ended_at bigint,
    source text NOT NULL, feed_logon_time bigint,
    CONSTRAINT atc_sessions_key UNIQUE (cid, callsign, logon_time)
  );

CREATE TABLE "audit_log" ("id" integer primary key autoincrement, "at" bigint not null, "actor" text not null, "actor_name" text, "action" text not null, "target" text not null, "before" text, "after" text);

CREATE TABLE "bookings" ("id" integer primary key autoincrement, "user_id" bigint not null references "users" ("id"), "position_id" integer not null references "positions" ("id"), "source" text not null, "network_booking" text, "time_start" bigint not null, "time_end" bigint not null, "training" integer default 0 not null, "event" integer default 0 not null, "exam" integer default 0 not null, "deleted" integer default 0 not null, "created_at" bigint not null, "updated_at" bigint not null, training_forced integer NOT NULL DEFAULT 0, revision integer NOT NULL DEFAULT 0, constraint "bookings_period_valid" check (time_start < time_end));

CREATE TABLE division_cpt (
    examination_id integer PRIMARY KEY,
    graded_at bigint NOT NULL,
    queued_at bigint
  );

CREATE TABLE division_flags (
    member_cid bigint NOT NULL,
    flag text NOT NULL CHECK (flag IN ('mentor', 'examiner')),
    PRIMARY KEY (member_cid, flag)
  );

CREATE TABLE division_requests (
    id integer PRIMARY KEY AUTOINCREMENT,
    member_cid bigint NOT NULL,
    about text NOT NULL,
    operation text NOT NULL,
    state text NOT NULL CHECK (state IN ('pending', 'refused', 'sent')),
    attempts integer NOT NULL DEFAULT 0,
    next_at bigint NOT NULL,
    unknown integer NOT NULL DEFAULT 0,
    error text,
    task_id integer,
    created_at bigint NOT NULL,
    sent_at bigint
  );

CREATE TABLE division_syncs (
    id integer PRIMARY KEY AUTOINCREMENT,
    started_at bigint NOT NULL,
    finished_at bigint,
    forced integer NOT NULL DEFAULT 0 CHECK (forced IN (0, 1)),
    roster_added integer NOT NULL DEFAULT 0,
    roster_removed integer NOT NULL DEFAULT 0,
    tiers_added integer NOT NULL DEFAULT 0,
    tiers_removed integer NOT NULL DEFAULT 0,
    added text NOT NULL,
    removed text NOT NULL,
    error text
  );

CREATE TABLE "endorsement_areas" ("endorsement_id" integer not null references "endorsements" ("id") on delete cascade, "area_id" integer not null references "areas" ("id") on delete cascade, constraint "endorsement_areas_pk" primary key ("endorsement_id", "area_id"));

CREATE TABLE "endorsement_positions" ("endorsement_id" integer not null references "endorsements" ("id") on delete cascade, "position_id" integer not null references "positions" ("id") on delete cascade, constraint "endorsement_positions_pk" primary key ("endorsement_id", "position_id"));

CREATE TABLE "endorsements" ("id" integer primary key autoincrement, "user_id" bigint not null references "users" ("id") on delete cascade, "type" text not null, "rating" text, "valid_from" bigint not null, "valid_to" bigint, "revoked" integer default 0 not null, "revoked_at" bigint, "created_at" bigint not null, issued_by bigint, expiry_published_at bigint, constraint "endorsements_natural_key" unique ("user_id", "type", "valid_from"));

CREATE TABLE events (
    seq integer PRIMARY KEY AUTOINCREMENT,
    id text NOT NULL UNIQUE,
    type text NOT NULL,
    booking_id bigint,
    body text NOT NULL,
    created_at bigint NOT NULL
  , network_push integer NOT NULL DEFAULT 0);

CREATE TABLE facilities (
    name text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 100),
    tier text CHECK (tier IN ('T1', 'T2')),
    description text CHECK (length(description) <= 500),
    updated_at bigint NOT NULL
  );

CREATE TABLE feedback (
    id integer PRIMARY KEY AUTOINCREMENT,
    sender_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    controller bigint CHECK (controller BETWEEN 1 AND 2147483647),
    position_id integer REFERENCES positions (id) ON DELETE SET NULL,
    text text NOT NULL CHECK (length(text) BETWEEN 1 AND 4000),
    actioned integer NOT NULL DEFAULT 0 CHECK (actioned IN (0, 1)),
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  );

CREATE TABLE feedback_comments (
    id integer PRIMARY KEY AUTOINCREMENT,
    feedback_id integer NOT NULL REFERENCES feedback (id) ON DELETE CASCADE,
    author_id bigint NOT NULL,
    text text NOT NULL CHECK (length(text) BETWEEN 1 AND 2000),
    created_at bigint NOT NULL
  );

CREATE TABLE "idempotency_keys" ("api_key_id" text not null, "key" text not null, "request_hash" text not null, "state" text not null check (state IN ('running', 'done')), "status" integer, "response_body" text, "claim_token" text not null, "claimed_at" bigint not null, "created_at" bigint not null, constraint "idempotency_keys_pk" primary key ("api_key_id", "key"));

CREATE TABLE "job_leases" ("name" text primary key, "owner" text not null, "lease_until" bigint not null, "last_success_at" bigint, started_at bigint NOT NULL DEFAULT 0, next_run_at bigint);

CREATE TABLE "login_states" ("state_hash" text primary key, "browser_hash" text not null, "code_verifier" text not null, "next" text not null, "created_at" bigint not null);

CREATE TABLE mail_choices (
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind text NOT NULL,
    enabled integer NOT NULL CHECK (enabled IN (0, 1)),
    PRIMARY KEY (user_id, kind)
  );

CREATE TABLE mail_outbox (
    id integer PRIMARY KEY AUTOINCREMENT,
    to_address text NOT NULL,
    subject text NOT NULL,
    text_body text NOT NULL,
    html_body text NOT NULL,
    created_at bigint NOT NULL,
    next_attempt_at bigint NOT NULL,
    lease_until bigint,
    attempts integer NOT NULL DEFAULT 0,
    sent_at bigint,
    -- Given up after the last attempt (the error stays in last_error).
    failed_at bigint,
    last_error text
  );

CREATE TABLE "member_calendars" ("user_id" bigint primary key references "users" ("id") on delete cascade, "secret" text not null unique, "created_at" bigint not null);

CREATE TABLE member_settings (
    user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    look text NOT NULL DEFAULT 'device' CHECK (look IN ('device', 'light', 'dark')),
    updated_at bigint NOT NULL
  );

CREATE TABLE "network_pushes" ("booking_id" integer primary key references "bookings" ("id") on delete cascade, "status" text not null, "version" integer not null, "attempts" integer default 0 not null, "next_attempt_at" bigint not null, "lease_until" bigint, "lease_owner" text, "posted" text, "last_status" integer, "last_error" text, "updated_at" bigint not null, pending_since bigint);

CREATE TABLE notices_sent (
    key text PRIMARY KEY,
    user_id bigint,
    sent_at bigint NOT NULL
  );

CREATE TABLE outbox_cursors (name text PRIMARY KEY, seq bigint NOT NULL);

CREATE TABLE "positions" ("id" integer primary key autoincrement, "callsign" text not null unique, "name" text not null, "frequency" text not null, "area_id" integer references "areas" ("id"), "rating" integer not null, "required_facility" text);

CREATE TABLE report_templates (
    id integer PRIMARY KEY AUTOINCREMENT,
    area_id integer NOT NULL REFERENCES areas (id) ON DELETE CASCADE,
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    content text NOT NULL CHECK (length(content) BETWEEN 1 AND 20000),
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    CONSTRAINT report_templates_area_name_key UNIQUE (area_id, name)
  );

CREATE TABLE "roles" (
      id integer PRIMARY KEY AUTOINCREMENT,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      area_id integer REFERENCES areas (id) ON DELETE CASCADE,
      role text NOT NULL,
      CONSTRAINT roles_natural_key UNIQUE (user_id, area_id, role),
      CONSTRAINT roles_division_wide CHECK (area_id IS NOT NULL OR role = 'Administrator')
    );

CREATE TABLE roster_staging (
    run_id text NOT NULL,
    id bigint NOT NULL,
    kind text NOT NULL CHECK (kind IN ('roster', 'member', 'unknown')),
    rating integer CHECK (kind = 'unknown' OR rating IS NOT NULL),
    region text,
    division text,
    subdivision text,
    personal integer NOT NULL,
    email text,
    first_name text,
    last_name text,
    PRIMARY KEY (run_id, id)
  );

CREATE TABLE "sector_migrations" ("name" varchar(255) not null primary key, "timestamp" varchar(255) not null);

CREATE TABLE "sector_migrations_lock" ("id" varchar(255) not null primary key, "is_locked" integer default 0 not null);

CREATE TABLE "sessions" ("id_hash" text primary key, "user_id" bigint not null references "users" ("id") on delete cascade, "csrf_secret" text not null, "created_at" bigint not null, "last_seen_at" bigint not null);

CREATE TABLE "settings" ("key" text primary key, "value" text not null);

CREATE TABLE sweatbox_sessions (
    id integer PRIMARY KEY AUTOINCREMENT,
    position_id integer NOT NULL REFERENCES positions (id) ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    time_start bigint NOT NULL,
    time_end bigint NOT NULL,
    notes text NOT NULL DEFAULT '' CHECK (length(notes) <= 255),
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    CONSTRAINT sweatbox_sessions_length CHECK (time_end - time_start BETWEEN 900000 AND 28800000)
  );

CREATE TABLE tasks (
    id integer PRIMARY KEY AUTOINCREMENT,
    type text NOT NULL CHECK (type IN ('rating_upgrade', 'solo_endorsement', 'theory_exam', 'custom')),
    status text NOT NULL CHECK (status IN ('pending', 'completed', 'declined', 'withdrawn')),
    subject_user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    training_id integer REFERENCES trainings (id) ON DELETE CASCADE,
    rating integer,
    message text CHECK (length(message) BETWEEN 1 AND 1000),
    creator_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    assignee_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at bigint NOT NULL,
    closed_at bigint,
    closed_message text CHECK (length(closed_message) BETWEEN 1 AND 1000),
    division_api_state text CHECK (division_api_state IN ('pending', 'sent', 'refused')),
    division_api_error text,
    CHECK ((status = 'pending') = (closed_at IS NULL)),
    CHECK (type = 'custom' OR training_id IS NOT NULL),
    CHECK (type <> 'custom' OR message IS NOT NULL),
    CHECK ((type IN ('rating_upgrade', 'theory_exam')) = (rating IS NOT NULL))
  );

CREATE TABLE training_attachments (
    id integer PRIMARY KEY AUTOINCREMENT,
    report_id integer REFERENCES training_reports (id) ON DELETE CASCADE,
    examination_id integer REFERENCES training_examinations (id) ON DELETE CASCADE,
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    type text NOT NULL CHECK (type IN ('application/pdf', 'image/png', 'image/jpeg', 'text/plain')),
    size integer NOT NULL CHECK (size BETWEEN 1 AND 10485760),
    sha256 text NOT NULL CHECK (length(sha256) = 64),
    content blob NOT NULL,
    hidden integer NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
    -- CID of the member who uploaded it (null: an API key, the CLI or an import); uploader: the actor as the audit log writes it.
    uploader_id bigint,
    uploader text NOT NULL,
    created_at bigint NOT NULL,
    CHECK ((report_id IS NULL) <> (examination_id IS NULL))
  );

CREATE TABLE "training_examinations" (
      id integer PRIMARY KEY AUTOINCREMENT,
      training_id integer NOT NULL REFERENCES trainings (id) ON DELETE CASCADE,
      examiner_id bigint NOT NULL,
      examination_date text NOT NULL,
      position text NOT NULL,
      result text CHECK (result IN ('PASSED', 'FAILED', 'INCOMPLETE', 'POSTPONED')),
      created_at bigint NOT NULL,
      start text CHECK (start IS NULL OR (length(start) = 5 AND substr(start, 3, 1) = ':')),
      updated_at bigint NOT NULL
    );

CREATE TABLE training_examiners (
    examination_id integer NOT NULL REFERENCES training_examinations (id) ON DELETE CASCADE,
    ordinal integer NOT NULL CHECK (ordinal IN (1, 2)),
    user_id bigint NOT NULL,
    PRIMARY KEY (examination_id, ordinal),
    UNIQUE (examination_id, user_id)
  );

CREATE TABLE training_facilities (
    training_id integer NOT NULL REFERENCES trainings (id) ON DELETE CASCADE,
    name text NOT NULL,
    PRIMARY KEY (training_id, name)
  );

CREATE TABLE training_links (
    id integer PRIMARY KEY AUTOINCREMENT,
    training_id integer NOT NULL REFERENCES trainings (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('report', 'examination')),
    examination_id integer REFERENCES training_examinations (id) ON DELETE CASCADE,
    token_hash text NOT NULL UNIQUE,
    created_by bigint NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    used_at bigint,
    used_by bigint,
    CHECK ((kind = 'examination') = (examination_id IS NOT NULL))
  );

CREATE TABLE training_mentors (
    training_id integer NOT NULL REFERENCES trainings (id) ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (training_id, user_id)
  );

CREATE TABLE "training_ratings" ("training_id" integer not null references "trainings" ("id") on delete cascade, "rating" integer not null, constraint "training_ratings_pk" primary key ("training_id", "rating"));

CREATE TABLE training_reports (
    id integer PRIMARY KEY AUTOINCREMENT,
    training_id integer NOT NULL REFERENCES trainings (id) ON DELETE CASCADE,
    author_id bigint,
    report_date text NOT NULL,
    content text NOT NULL,
    improve text,
    position text,
    draft integer NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  );

CREATE TABLE training_timeline (
    id integer PRIMARY KEY AUTOINCREMENT,
    training_id integer NOT NULL REFERENCES trainings (id) ON DELETE CASCADE,
    at bigint NOT NULL,
    actor text NOT NULL,
    actor_name text,
    action text NOT NULL,
    detail text NOT NULL
  );

CREATE TABLE "trainings" ("id" integer primary key autoincrement, "user_id" bigint not null references "users" ("id") on delete cascade, "area_id" integer not null references "areas" ("id") on delete cascade, "type" text not null, "status" integer not null, "created_at" bigint not null, "started_at" bigint, closed_at bigint, closed_reason text, motivation text, experience integer, english_only integer NOT NULL DEFAULT 0, paused_at bigint, paused_ms bigint NOT NULL DEFAULT 0, queue_wait_ms bigint, interest_confirmed_at bigint, interest_deadline bigint, constraint "trainings_natural_key" unique ("user_id", "area_id", "created_at"));

CREATE TABLE "user_area_activity" ("user_id" bigint not null references "users" ("id") on delete cascade, "area_id" integer not null references "areas" ("id") on delete cascade, "active" integer not null, granted_at bigint, constraint "user_area_activity_pk" primary key ("user_id", "area_id"));

CREATE TABLE "users" ("id" bigint primary key, "email" text, "first_name" text, "last_name" text, "rating" integer not null, "region" text, "division" text, "subdivision" text, "created_at" bigint not null, "updated_at" bigint not null, last_login_at bigint, erased_at bigint);

CREATE TABLE vote_options (
    id integer PRIMARY KEY AUTOINCREMENT,
    vote_id integer NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
    position integer NOT NULL CHECK (position BETWEEN 1 AND 10),
    text text NOT NULL CHECK (length(text) BETWEEN 1 AND 200),
    count integer NOT NULL DEFAULT 0 CHECK (count >= 0),
    CONSTRAINT vote_options_position_key UNIQUE (vote_id, position)
  );

CREATE TABLE vote_voters (
    vote_id integer NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
    user_id bigint NOT NULL,
    voted_on text NOT NULL CHECK (length(voted_on) = 10),
    CONSTRAINT vote_voters_pkey PRIMARY KEY (vote_id, user_id)
  );

CREATE TABLE votes (
    id integer PRIMARY KEY AUTOINCREMENT,
    question text NOT NULL CHECK (length(question) BETWEEN 1 AND 500),
    eligibility text NOT NULL CHECK (eligibility IN ('members', 'active', 'all')),
    closes_at bigint NOT NULL,
    closed_at bigint,
    created_by bigint NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  );

CREATE TABLE webhook_attempts (
    id integer PRIMARY KEY AUTOINCREMENT,
    delivery_id bigint NOT NULL,
    webhook_id text NOT NULL,
    event_id text NOT NULL,
    event_type text NOT NULL,
    attempt integer NOT NULL,
    status_code integer,
    error text,
    at bigint NOT NULL,
    duration_ms integer NOT NULL
  );

CREATE TABLE webhook_deliveries (
    id integer PRIMARY KEY AUTOINCREMENT,
    event_seq bigint NOT NULL,
    event_id text NOT NULL,
    webhook_id text NOT NULL REFERENCES webhooks(id),
    status text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at bigint NOT NULL,
    lease_until bigint,
    last_status integer,
    last_error text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  );

CREATE TABLE webhooks (
    id text PRIMARY KEY,
    url text NOT NULL,
    events text,
    secret text NOT NULL,
    created_at bigint NOT NULL,
    removed_at bigint
  , fanned_out_seq bigint NOT NULL DEFAULT 0, "failing_since" bigint, "disabled_at" bigint, "disabled_reason" text);

CREATE TRIGGER bookings_no_overlap_insert BEFORE INSERT ON bookings
           WHEN NEW.deleted = 0 AND EXISTS (
             SELECT 1 FROM bookings b WHERE b.position_id = NEW.position_id AND b.deleted = 0
               AND b.id IS NOT NEW.id AND b.time_start < NEW.time_end AND NEW.time_start < b.time_end)
           BEGIN SELECT RAISE(ABORT, 'bookings_no_overlap'); END;

CREATE TRIGGER bookings_no_overlap_update BEFORE UPDATE OF position_id, time_start, time_end, deleted ON bookings
           WHEN NEW.deleted = 0 AND EXISTS (
             SELECT 1 FROM bookings b WHERE b.position_id = NEW.position_id AND b.deleted = 0
               AND b.id IS NOT NEW.id AND b.time_start < NEW.time_end AND NEW.time_start < b.time_end)
           BEGIN SELECT RAISE(ABORT, 'bookings_no_overlap'); END;

CREATE TRIGGER sweatbox_no_overlap_insert BEFORE INSERT ON sweatbox_sessions
      WHEN EXISTS (SELECT 1 FROM sweatbox_sessions s WHERE s.position_id = NEW.position_id
        AND s.time_start < NEW.time_end AND NEW.time_start < s.time_end)
      BEGIN SELECT RAISE(ABORT, 'sweatbox_no_overlap'); END;

CREATE TRIGGER sweatbox_no_overlap_update BEFORE UPDATE OF position_id, time_start, time_end ON sweatbox_sessions
      WHEN EXISTS (SELECT 1 FROM sweatbox_sessions s WHERE s.position_id = NEW.position_id AND s.id <> NEW.id
        AND s.time_start < NEW.time_end AND NEW.time_start < s.time_end)
      BEGIN SELECT RAISE(ABORT, 'sweatbox_no_overlap'); END;

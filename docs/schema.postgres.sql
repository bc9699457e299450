-- columns
activity_backfill.cid bigint not null
activity_backfill.done_at bigint
activity_backfill.next_offset integer not null
api_keys.compat text
api_keys.created_at bigint not null
api_keys.expires_at bigint
api_keys.id text not null
api_keys.last_used_at bigint
api_keys.name text not null
api_keys.revoked_at bigint
api_keys.scope text not null
api_keys.secret_hash text not null
api_keys.variant text
areas.id integer not null
areas.name text not null
atc_sessions.callsign text not null
atc_sessions.cid bigint not null
atc_sessions.ended_at bigint
atc_sessions.feed_logon_time bigint
atc_sessions.frequency text
atc_sessions.id bigint not null
atc_sessions.last_seen bigint not null
atc_sessions.logon_time bigint not null
atc_sessions.name text
atc_sessions.position text not null
atc_sessions.source text not null
audit_log.action text not null
audit_log.actor text not null
audit_log.actor_name text
audit_log.after text
audit_log.at bigint not null
audit_log.before text
audit_log.id bigint not null
audit_log.target text not null
bookings.created_at bigint not null
bookings.deleted integer not null default 0
bookings.event integer not null default 0
bookings.exam integer not null default 0
bookings.id integer not null
bookings.network_booking text
bookings.position_id integer not null
bookings.revision integer not null default 0
bookings.source text not null
bookings.time_end bigint not null
bookings.time_start bigint not null
bookings.training integer not null default 0
bookings.training_forced integer not null default 0
bookings.updated_at bigint not null
bookings.user_id bigint not null
division_cpt.examination_id integer not null
division_cpt.graded_at bigint not null
division_cpt.queued_at bigint
division_flags.flag text not null
division_flags.member_cid bigint not null
division_requests.about text not null
division_requests.attempts integer not null default 0
division_requests.created_at bigint not null
division_requests.error text
division_requests.id integer not null
division_requests.member_cid bigint not null
division_requests.next_at bigint not null
division_requests.operation text not null
division_requests.sent_at bigint
division_requests.state text not null
division_requests.task_id integer
division_requests.unknown integer not null default 0
division_syncs.added text not null
division_syncs.error text
division_syncs.finished_at bigint
division_syncs.forced integer not null default 0
division_syncs.id integer not null
division_syncs.removed text not null
division_syncs.roster_added integer not null default 0
division_syncs.roster_removed integer not null default 0
division_syncs.started_at bigint not null
division_syncs.tiers_added integer not null default 0
division_syncs.tiers_removed integer not null default 0
endorsement_areas.area_id integer not null
endorsement_areas.endorsement_id integer not null
endorsement_positions.endorsement_id integer not null
endorsement_positions.position_id integer not null
endorsements.created_at bigint not null
endorsements.expiry_published_at bigint
endorsements.id integer not null
endorsements.issued_by bigint
endorsements.rating text
endorsements.revoked integer not null default 0
endorsements.revoked_at bigint
endorsements.type text not null
endorsements.user_id bigint not null
endorsements.valid_from bigint not null
endorsements.valid_to bigint
events.body text not null
events.booking_id bigint
events.created_at bigint not null
events.id text not null
events.network_push integer not null default 0
events.seq bigint not null
events.type text not null
facilities.description text
facilities.name text not null
facilities.tier text
facilities.updated_at bigint not null
feedback.actioned integer not null default 0
feedback.controller bigint
feedback.created_at bigint not null
feedback.id integer not null
feedback.position_id integer
feedback.sender_id bigint not null
feedback.text text not null
feedback.updated_at bigint not null
feedback_comments.author_id bigint not null
feedback_comments.created_at bigint not null
feedback_comments.feedback_id integer not null
feedback_comments.id integer not null
feedback_comments.text text not null
idempotency_keys.api_key_id text not null
idempotency_keys.claim_token text not null
idempotency_keys.claimed_at bigint not null
idempotency_keys.created_at bigint not null
idempotency_keys.key text not null
idempotency_keys.request_hash text not null
idempotency_keys.response_body text
idempotency_keys.state text not null
idempotency_keys.status integer
job_leases.last_success_at bigint
job_leases.lease_until bigint not null
job_leases.name text not null
job_leases.next_run_at bigint
job_leases.owner text not null
job_leases.started_at bigint not null default 0
login_states.browser_hash text not null
login_states.code_verifier text not null
login_states.created_at bigint not null
login_states.next text not null
login_states.state_hash text not null
mail_choices.enabled integer not null
mail_choices.kind text not null
mail_choices.user_id bigint not null
mail_outbox.attempts integer not null default 0
mail_outbox.created_at bigint not null
mail_outbox.failed_at bigint
mail_outbox.html_body text not null
mail_outbox.id integer not null
mail_outbox.last_error text
mail_outbox.lease_until bigint
mail_outbox.next_attempt_at bigint not null
mail_outbox.sent_at bigint
mail_outbox.subject text not null
mail_outbox.text_body text not null
mail_outbox.to_address text not null
member_calendars.created_at bigint not null
member_calendars.secret text not null
member_calendars.user_id bigint not null
member_settings.look text not null default 'device'::text
member_settings.updated_at bigint not null
member_settings.user_id bigint not null
network_pushes.attempts integer not null default 0
network_pushes.booking_id integer not null
network_pushes.last_error text
network_pushes.last_status integer
network_pushes.lease_owner text
network_pushes.lease_until bigint
network_pushes.next_attempt_at bigint not null
network_pushes.pending_since bigint
network_pushes.posted text
network_pushes.status text not null
network_pushes.updated_at bigint not null
network_pushes.version integer not null
notices_sent.key text not null
notices_sent.sent_at bigint not null
notices_sent.user_id bigint
outbox_cursors.name text not null
outbox_cursors.seq bigint not null
positions.area_id integer
positions.callsign text not null
positions.frequency text not null
positions.id integer not null
positions.name text not null
positions.rating integer not null
positions.required_facility text
report_templates.area_id integer not null
report_templates.content text not null
report_templates.created_at bigint not null
report_templates.id integer not null
report_templates.name text not null
report_templates.updated_at bigint not null
roles.area_id integer
roles.id integer not null
roles.role text not null
roles.user_id bigint not null
roster_staging.division text
roster_staging.email text
roster_staging.first_name text
roster_staging.id bigint not null
roster_staging.kind text not null
roster_staging.last_name text
roster_staging.personal integer not null
roster_staging.rating integer
roster_staging.region text
roster_staging.run_id text not null
roster_staging.subdivision text
sector_migrations.name character varying not null
sector_migrations.timestamp character varying not null
sector_migrations_lock.id character varying not null
sector_migrations_lock.is_locked integer not null default 0
sessions.created_at bigint not null
sessions.csrf_secret text not null
sessions.id_hash text not null
sessions.last_seen_at bigint not null
sessions.user_id bigint not null
settings.key text not null
settings.value text not null
sweatbox_sessions.created_at bigint not null
sweatbox_sessions.id integer not null
sweatbox_sessions.notes text not null default ''::text
sweatbox_sessions.position_id integer not null
sweatbox_sessions.time_end bigint not null
sweatbox_sessions.time_start bigint not null
sweatbox_sessions.updated_at bigint not null
sweatbox_sessions.user_id bigint not null
tasks.assignee_id bigint not null
tasks.closed_at bigint
tasks.closed_message text
tasks.created_at bigint not null
tasks.creator_id bigint not null
tasks.division_api_error text
tasks.division_api_state text
tasks.id integer not null
tasks.message text
tasks.rating integer
tasks.status text not null
tasks.subject_user_id bigint not null
tasks.training_id integer
tasks.type text not null
training_attachments.content bytea not null
training_attachments.created_at bigint not null
training_attachments.examination_id integer
training_attachments.hidden integer not null default 0
training_attachments.id integer not null
training_attachments.name text not null
training_attachments.report_id integer
training_attachments.sha256 text not null
training_attachments.size integer not null
training_attachments.type text not null
training_attachments.uploader text not null
training_attachments.uploader_id bigint
training_examinations.created_at bigint not null
training_examinations.examination_date text not null
training_examinations.examiner_id bigint not null
training_examinations.id integer not null
training_examinations.position text not null
training_examinations.result text
training_examinations.start text
training_examinations.training_id integer not null
training_examinations.updated_at bigint not null
training_examiners.examination_id integer not null
training_examiners.ordinal integer not null
training_examiners.user_id bigint not null
training_facilities.name text not null
training_facilities.training_id integer not null
training_links.created_at bigint not null
training_links.created_by bigint not null
training_links.examination_id integer
training_links.expires_at bigint not null
training_links.id integer not null
training_links.kind text not null
training_links.token_hash text not null
training_links.training_id integer not null
training_links.used_at bigint
training_links.used_by bigint
training_mentors.training_id integer not null
training_mentors.user_id bigint not null
training_ratings.rating integer not null
training_ratings.training_id integer not null
training_reports.author_id bigint
training_reports.content text not null
training_reports.created_at bigint not null
training_reports.draft integer not null
training_reports.id integer not null
training_reports.improve text
training_reports.position text
training_reports.report_date text not null
training_reports.training_id integer not null
training_reports.updated_at bigint not null
training_timeline.action text not null
training_timeline.actor text not null
training_timeline.actor_name text
training_timeline.at bigint not null
training_timeline.detail text not null
training_timeline.id integer not null
training_timeline.training_id integer not null
trainings.area_id integer not null
trainings.closed_at bigint
trainings.closed_reason text
trainings.created_at bigint not null
trainings.english_only integer not null default 0
trainings.experience integer
trainings.id integer not null
trainings.interest_confirmed_at bigint
trainings.interest_deadline bigint
trainings.motivation text
trainings.paused_at bigint
trainings.paused_ms bigint not null default 0
trainings.queue_wait_ms bigint
trainings.started_at bigint
trainings.status integer not null
trainings.type text not null
trainings.user_id bigint not null
user_area_activity.active integer not null
user_area_activity.area_id integer not null
user_area_activity.granted_at bigint
user_area_activity.user_id bigint not null
users.created_at bigint not null
users.division text
users.email text
users.erased_at bigint
users.first_name text
users.id bigint not null
users.last_login_at bigint
users.last_name text
users.rating integer not null
users.region text
users.subdivision text
users.updated_at bigint not null
vote_options.count integer not null default 0
vote_options.id integer not null
vote_options.position integer not null
vote_options.text text not null
vote_options.vote_id integer not null
vote_voters.user_id bigint not null
vote_voters.vote_id integer not null
vote_voters.voted_on text not null
votes.closed_at bigint
votes.closes_at bigint not null
votes.created_at bigint not null
votes.created_by bigint not null
votes.eligibility text not null
votes.id integer not null
votes.question text not null
votes.updated_at bigint not null
webhook_attempts.at bigint not null
webhook_attempts.attempt integer not null
webhook_attempts.delivery_id bigint not null
webhook_attempts.duration_ms integer not null
webhook_attempts.error text
webhook_attempts.event_id text not null
webhook_attempts.event_type text not null
webhook_attempts.id bigint not null
webhook_attempts.status_code integer
webhook_attempts.webhook_id text not null
webhook_deliveries.attempts integer not null default 0
webhook_deliveries.created_at bigint not null
webhook_deliveries.event_id text not null
webhook_deliveries.event_seq bigint not null
webhook_deliveries.id bigint not null
webhook_deliveries.last_error text
webhook_deliveries.last_status integer
webhook_deliveries.lease_until bigint
webhook_deliveries.next_attempt_at bigint not null
webhook_deliveries.status text not null
webhook_deliveries.updated_at bigint not null
webhook_deliveries.webhook_id text not null
webhooks.created_at bigint not null
webhooks.disabled_at bigint
webhooks.disabled_reason text
webhooks.events text
webhooks.failing_since bigint
webhooks.fanned_out_seq bigint not null default 0
webhooks.id text not null
webhooks.removed_at bigint
webhooks.secret text not null
webhooks.url text not null
-- constraints
activity_backfill activity_backfill_pkey PRIMARY KEY (cid)
api_keys api_keys_name_key UNIQUE (name)
api_keys api_keys_pkey PRIMARY KEY (id)
areas areas_name_key UNIQUE (name)
areas areas_pkey PRIMARY KEY (id)
atc_sessions atc_sessions_key UNIQUE (cid, callsign, logon_time)
atc_sessions atc_sessions_pkey PRIMARY KEY (id)
audit_log audit_log_pkey PRIMARY KEY (id)
bookings bookings_no_overlap EXCLUDE USING gist (position_id WITH =, int8range(time_start, time_end) WITH &&) WHERE ((deleted = 0))
bookings bookings_period_valid CHECK ((time_start < time_end))
bookings bookings_pkey PRIMARY KEY (id)
bookings bookings_position_id_fkey FOREIGN KEY (position_id) REFERENCES positions(id)
bookings bookings_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
division_cpt division_cpt_pkey PRIMARY KEY (examination_id)
division_flags division_flags_flag_check CHECK ((flag = ANY (ARRAY['mentor'::text, 'examiner'::text])))
division_flags division_flags_pkey PRIMARY KEY (member_cid, flag)
division_requests division_requests_pkey PRIMARY KEY (id)
division_requests division_requests_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'refused'::text, 'sent'::text])))
division_syncs division_syncs_forced_check CHECK ((forced = ANY (ARRAY[0, 1])))
division_syncs division_syncs_pkey PRIMARY KEY (id)
endorsement_areas endorsement_areas_area_id_fkey FOREIGN KEY (area_id) REFERENCES areas(id) ON DELETE CASCADE
endorsement_areas endorsement_areas_endorsement_id_fkey FOREIGN KEY (endorsement_id) REFERENCES endorsements(id) ON DELETE CASCADE
endorsement_areas endorsement_areas_pk PRIMARY KEY (endorsement_id, area_id)
endorsement_positions endorsement_positions_endorsement_id_fkey FOREIGN KEY (endorsement_id) REFERENCES endorsements(id) ON DELETE CASCADE
endorsement_positions endorsement_positions_pk PRIMARY KEY (endorsement_id, position_id)
endorsement_positions endorsement_positions_position_id_fkey FOREIGN KEY (position_id) REFERENCES positions(id) ON DELETE CASCADE
endorsements endorsements_natural_key UNIQUE (user_id, type, valid_from)
endorsements endorsements_pkey PRIMARY KEY (id)
endorsements endorsements_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
events events_id_key UNIQUE (id)
events events_pkey PRIMARY KEY (seq)
facilities facilities_description_check CHECK ((length(description) <= 500))
facilities facilities_name_check CHECK (((length(name) >= 1) AND (length(name) <= 100)))
facilities facilities_pkey PRIMARY KEY (name)
facilities facilities_tier_check CHECK ((tier = ANY (ARRAY['T1'::text, 'T2'::text])))
feedback feedback_actioned_check CHECK ((actioned = ANY (ARRAY[0, 1])))
feedback feedback_controller_check CHECK (((controller >= 1) AND (controller <= 2147483647)))
feedback feedback_pkey PRIMARY KEY (id)
feedback feedback_position_id_fkey FOREIGN KEY (position_id) REFERENCES positions(id) ON DELETE SET NULL
feedback feedback_sender_id_fkey FOREIGN KEY (sender_id) REFERENCES users(id) ON DELETE CASCADE
feedback feedback_text_check CHECK (((length(text) >= 1) AND (length(text) <= 4000)))
feedback_comments feedback_comments_feedback_id_fkey FOREIGN KEY (feedback_id) REFERENCES feedback(id) ON DELETE CASCADE
feedback_comments feedback_comments_pkey PRIMARY KEY (id)
feedback_comments feedback_comments_text_check CHECK (((length(text) >= 1) AND (length(text) <= 2000)))
idempotency_keys idempotency_keys_pk PRIMARY KEY (api_key_id, key)
idempotency_keys idempotency_keys_state_check CHECK ((state = ANY (ARRAY['running'::text, 'done'::text])))
job_leases job_leases_pkey PRIMARY KEY (name)
login_states login_states_pkey PRIMARY KEY (state_hash)
mail_choices mail_choices_enabled_check CHECK ((enabled = ANY (ARRAY[0, 1])))
mail_choices mail_choices_pkey PRIMARY KEY (user_id, kind)
mail_choices mail_choices_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
mail_outbox mail_outbox_pkey PRIMARY KEY (id)
member_calendars member_calendars_pkey PRIMARY KEY (user_id)
member_calendars member_calendars_secret_key UNIQUE (secret)
member_calendars member_calendars_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
member_settings member_settings_look_check CHECK ((look = ANY (ARRAY['device'::text, 'light'::text, 'dark'::text])))
member_settings member_settings_pkey PRIMARY KEY (user_id)
member_settings member_settings_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
network_pushes network_pushes_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings(id) ON DELETE CASCADE
network_pushes network_pushes_pkey PRIMARY KEY (booking_id)
notices_sent notices_sent_pkey PRIMARY KEY (key)
outbox_cursors outbox_cursors_pkey PRIMARY KEY (name)
positions positions_area_id_fkey FOREIGN KEY (area_id) REFERENCES areas(id)
positions positions_callsign_key UNIQUE (callsign)
positions positions_pkey PRIMARY KEY (id)
report_templates report_templates_area_id_fkey FOREIGN KEY (area_id) REFERENCES areas(id) ON DELETE CASCADE
report_templates report_templates_area_name_key UNIQUE (area_id, name)
report_templates report_templates_content_check CHECK (((length(content) >= 1) AND (length(content) <= 20000)))
report_templates report_templates_name_check CHECK (((length(name) >= 1) AND (length(name) <= 80)))
report_templates report_templates_pkey PRIMARY KEY (id)
roles roles_area_id_fkey FOREIGN KEY (area_id) REFERENCES areas(id) ON DELETE CASCADE
roles roles_division_wide CHECK (((area_id IS NOT NULL) OR (role = 'Administrator'::text)))
roles roles_natural_key UNIQUE (user_id, area_id, role)
roles roles_pkey PRIMARY KEY (id)
roles roles_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
roster_staging roster_staging_check CHECK (((kind = 'unknown'::text) OR (rating IS NOT NULL)))
roster_staging roster_staging_kind_check CHECK ((kind = ANY (ARRAY['roster'::text, 'member'::text, 'unknown'::text])))
roster_staging roster_staging_pkey PRIMARY KEY (run_id, id)
sector_migrations sector_migrations_pkey PRIMARY KEY (name)
sector_migrations_lock sector_migrations_lock_pkey PRIMARY KEY (id)
sessions sessions_pkey PRIMARY KEY (id_hash)
sessions sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
settings settings_pkey PRIMARY KEY (key)
sweatbox_sessions sweatbox_no_overlap EXCLUDE USING gist (position_id WITH =, int8range(time_start, time_end) WITH &&)
sweatbox_sessions sweatbox_sessions_length CHECK ((((time_end - time_start) >= 900000) AND ((time_end - time_start) <= 28800000)))
sweatbox_sessions sweatbox_sessions_notes_check CHECK ((length(notes) <= 255))
sweatbox_sessions sweatbox_sessions_pkey PRIMARY KEY (id)
sweatbox_sessions sweatbox_sessions_position_id_fkey FOREIGN KEY (position_id) REFERENCES positions(id) ON DELETE CASCADE
sweatbox_sessions sweatbox_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
tasks tasks_assignee_id_fkey FOREIGN KEY (assignee_id) REFERENCES users(id) ON DELETE CASCADE
tasks tasks_check CHECK (((status = 'pending'::text) = (closed_at IS NULL)))
tasks tasks_check1 CHECK (((type = 'custom'::text) OR (training_id IS NOT NULL)))
tasks tasks_check2 CHECK (((type <> 'custom'::text) OR (message IS NOT NULL)))
tasks tasks_check3 CHECK (((type = ANY (ARRAY['rating_upgrade'::text, 'theory_exam'::text])) = (rating IS NOT NULL)))
tasks tasks_closed_message_check CHECK (((length(closed_message) >= 1) AND (length(closed_message) <= 1000)))
tasks tasks_creator_id_fkey FOREIGN KEY (creator_id) REFERENCES users(id) ON DELETE CASCADE
tasks tasks_division_api_state_check CHECK ((division_api_state = ANY (ARRAY['pending'::text, 'sent'::text, 'refused'::text])))
tasks tasks_message_check CHECK (((length(message) >= 1) AND (length(message) <= 1000)))
tasks tasks_pkey PRIMARY KEY (id)
tasks tasks_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'completed'::text, 'declined'::text, 'withdrawn'::text])))
tasks tasks_subject_user_id_fkey FOREIGN KEY (subject_user_id) REFERENCES users(id) ON DELETE CASCADE
tasks tasks_training_id_fkey FOREIGN KEY (training_id) REFERENCES trainings(id) ON DELETE CASCADE
tasks tasks_type_check CHECK ((type = ANY (ARRAY['rating_upgrade'::text, 'solo_endorsement'::text, 'theory_exam'::text, 'custom'::text])))
training_attachments training_attachments_check CHECK (((report_id IS NULL) <> (examination_id IS NULL)))
training_attachments training_attachments_examination_id_fkey FOREIGN KEY (examination_id) REFERENCES training_examinations(id) ON DELETE CASCADE
training_attachments training_attachments_hidden_check CHECK ((hidden = ANY (ARRAY[0, 1])))
training_attachments training_attachments_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
training_attachments training_attachments_pkey PRIMARY KEY (id)
training_attachments training_attachments_report_id_fkey FOREIGN KEY (report_id) REFERENCES training_reports(id) ON DELETE CASCADE
training_attachments training_attachments_sha256_check CHECK ((length(sha256) = 64))
training_attachments training_attachments_size_check CHECK (((size >= 1) AND (size <= 10485760)))
training_attachments training_attachments_type_check CHECK ((type = ANY (ARRAY['application/pdf'::text, 'image/png'::text, 'image/jpeg'::text, 'text/plain'::text])))
training_examinations training_examinations_pkey PRIMARY KEY (id)
training_examinations training_examinations_result_check CHECK ((result = ANY (ARRAY['PASSED'::text, 'FAILED'::text, 'INCOMPLETE'::text, 'POSTPONED'::text])))
training_examinations training_examinations_start_check CHECK (((start IS NULL) OR ((length(start) = 5) AND (substr(start, 3, 1) = ':'::text))))
training_examinations training_examinations_training_id_fkey FOREIGN KEY (training_id) REFERENCES trainings(id) ON DELETE CASCADE
training_examiners training_examiners_examination_id_fkey FOREIGN KEY (examination_id) REFERENCES training_examinations(id) ON DELETE CASCADE
training_examiners training_examiners_examination_id_user_id_key UNIQUE (examination_id, user_id)
training_examiners training_examiners_ordinal_check CHECK ((ordinal = ANY (ARRAY[1, 2])))
training_examiners training_examiners_pkey PRIMARY KEY (examination_id, ordinal)
training_facilities training_facilities_pkey PRIMARY KEY (training_id, name)
training_facilities training_facilities_training_id_fkey FOREIGN KEY (training_id) REFERENCES trainings(id) ON DELETE CASCADE
training_links training_links_check CHECK (((kind = 'examination'::text) = (examination_id IS NOT NULL)))
training_links training_links_examination_id_fkey FOREIGN KEY (examination_id) REFERENCES training_examinations(id) ON DELETE CASCADE
training_links training_links_kind_check CHECK ((kind = ANY (ARRAY['report'::text, 'examination'::text])))
training_links training_links_pkey PRIMARY KEY (id)
training_links training_links_token_hash_key UNIQUE (token_hash)
training_links training_links_training_id_fkey FOREIGN KEY (training_id) REFERENCES trainings(id) ON DELETE CASCADE
training_mentors training_mentors_pkey PRIMARY KEY (training_id, user_id)
training_mentors training_mentors_training_id_fkey FOREIGN KEY (training_id) REFERENCES trainings(id) ON DELETE CASCADE
training_mentors training_mentors_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
training_ratings training_ratings_pk PRIMARY KEY (training_id, rating)
training_ratings training_ratings_training_id_fkey FOREIGN KEY (training_id) REFERENCES trainings(id) ON DELETE CASCADE
training_reports training_reports_pkey PRIMARY KEY (id)
training_reports training_reports_training_id_fkey FOREIGN KEY (training_id) REFERENCES trainings(id) ON DELETE CASCADE
training_timeline training_timeline_pkey PRIMARY KEY (id)
training_timeline training_timeline_training_id_fkey FOREIGN KEY (training_id) REFERENCES trainings(id) ON DELETE CASCADE
trainings trainings_area_id_fkey FOREIGN KEY (area_id) REFERENCES areas(id) ON DELETE CASCADE
trainings trainings_natural_key UNIQUE (user_id, area_id, created_at)
trainings trainings_pkey PRIMARY KEY (id)
trainings trainings_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
user_area_activity user_area_activity_area_id_fkey FOREIGN KEY (area_id) REFERENCES areas(id) ON DELETE CASCADE
user_area_activity user_area_activity_pk PRIMARY KEY (user_id, area_id)
user_area_activity user_area_activity_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
users users_pkey PRIMARY KEY (id)
vote_options vote_options_count_check CHECK ((count >= 0))
vote_options vote_options_pkey PRIMARY KEY (id)
vote_options vote_options_position_check CHECK ((("position" >= 1) AND ("position" <= 10)))
vote_options vote_options_position_key UNIQUE (vote_id, "position")
vote_options vote_options_text_check CHECK (((length(text) >= 1) AND (length(text) <= 200)))
vote_options vote_options_vote_id_fkey FOREIGN KEY (vote_id) REFERENCES votes(id) ON DELETE CASCADE
vote_voters vote_voters_pkey PRIMARY KEY (vote_id, user_id)
vote_voters vote_voters_vote_id_fkey FOREIGN KEY (vote_id) REFERENCES votes(id) ON DELETE CASCADE
vote_voters vote_voters_voted_on_check CHECK ((length(voted_on) = 10))
votes votes_eligibility_check CHECK ((eligibility = ANY (ARRAY['members'::text, 'active'::text, 'all'::text])))
votes votes_pkey PRIMARY KEY (id)
votes votes_question_check CHECK (((length(question) >= 1) AND (length(question) <= 500)))
webhook_attempts webhook_attempts_pkey PRIMARY KEY (id)
webhook_deliveries webhook_deliveries_pkey PRIMARY KEY (id)
webhook_deliveries webhook_deliveries_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES webhooks(id)
webhooks webhooks_pkey PRIMARY KEY (id)
-- indexes
CREATE UNIQUE INDEX activity_backfill_pkey ON activity_backfill USING btree (cid)
CREATE UNIQUE INDEX api_keys_name_key ON api_keys USING btree (name)
CREATE UNIQUE INDEX api_keys_pkey ON api_keys USING btree (id)
CREATE UNIQUE INDEX areas_name_key ON areas USING btree (name)
CREATE UNIQUE INDEX areas_pkey ON areas USING btree (id)
CREATE UNIQUE INDEX atc_sessions_key ON atc_sessions USING btree (cid, callsign, logon_time)
CREATE INDEX atc_sessions_open_idx ON atc_sessions USING btree (last_seen) WHERE (ended_at IS NULL)
CREATE UNIQUE INDEX atc_sessions_pkey ON atc_sessions USING btree (id)
CREATE INDEX atc_sessions_report_idx ON atc_sessions USING btree (last_seen, logon_time, "position", cid)
CREATE INDEX atc_sessions_seen_idx ON atc_sessions USING btree (last_seen, cid)
CREATE INDEX audit_log_at_idx ON audit_log USING btree (at, id)
CREATE UNIQUE INDEX audit_log_pkey ON audit_log USING btree (id)
CREATE INDEX audit_log_target_idx ON audit_log USING btree (target, id)
CREATE INDEX bookings_end_idx ON bookings USING btree (deleted, time_end)
CREATE INDEX bookings_list_idx ON bookings USING btree (deleted, time_start, id)
CREATE INDEX bookings_live_position_end_idx ON bookings USING btree (position_id, time_end) WHERE (deleted = 0)
CREATE INDEX bookings_no_overlap ON bookings USING gist (position_id, int8range(time_start, time_end)) WHERE (deleted = 0)
CREATE UNIQUE INDEX bookings_pkey ON bookings USING btree (id)
CREATE UNIQUE INDEX division_cpt_pkey ON division_cpt USING btree (examination_id)
CREATE INDEX division_cpt_waiting_idx ON division_cpt USING btree (examination_id) WHERE (queued_at IS NULL)
CREATE UNIQUE INDEX division_flags_pkey ON division_flags USING btree (member_cid, flag)
CREATE UNIQUE INDEX division_requests_cpt_idx ON division_requests USING btree (about) WHERE (about ~~ 'cpt:%'::text)
CREATE INDEX division_requests_open_idx ON division_requests USING btree (state, member_cid, id)
CREATE UNIQUE INDEX division_requests_pkey ON division_requests USING btree (id)
CREATE UNIQUE INDEX division_syncs_pkey ON division_syncs USING btree (id)
CREATE UNIQUE INDEX endorsement_areas_pk ON endorsement_areas USING btree (endorsement_id, area_id)
CREATE UNIQUE INDEX endorsement_positions_pk ON endorsement_positions USING btree (endorsement_id, position_id)
CREATE INDEX endorsements_expiry_idx ON endorsements USING btree (valid_to) WHERE ((expiry_published_at IS NULL) AND (valid_to IS NOT NULL) AND (revoked = 0))
CREATE UNIQUE INDEX endorsements_natural_key ON endorsements USING btree (user_id, type, valid_from)
CREATE UNIQUE INDEX endorsements_pkey ON endorsements USING btree (id)
CREATE INDEX endorsements_type_idx ON endorsements USING btree (type, user_id)
CREATE INDEX endorsements_user_from_idx ON endorsements USING btree (user_id, valid_from, id)
CREATE INDEX events_created_at_idx ON events USING btree (created_at)
CREATE UNIQUE INDEX events_id_key ON events USING btree (id)
CREATE UNIQUE INDEX events_pkey ON events USING btree (seq)
CREATE UNIQUE INDEX facilities_pkey ON facilities USING btree (name)
CREATE INDEX feedback_created_idx ON feedback USING btree (created_at, id)
CREATE UNIQUE INDEX feedback_pkey ON feedback USING btree (id)
CREATE INDEX feedback_sender_idx ON feedback USING btree (sender_id, created_at)
CREATE INDEX feedback_comments_feedback_idx ON feedback_comments USING btree (feedback_id, id)
CREATE UNIQUE INDEX feedback_comments_pkey ON feedback_comments USING btree (id)
CREATE INDEX idempotency_keys_created_at ON idempotency_keys USING btree (created_at)
CREATE UNIQUE INDEX idempotency_keys_pk ON idempotency_keys USING btree (api_key_id, key)
CREATE UNIQUE INDEX job_leases_pkey ON job_leases USING btree (name)
CREATE INDEX login_states_created_idx ON login_states USING btree (created_at)
CREATE UNIQUE INDEX login_states_pkey ON login_states USING btree (state_hash)
CREATE UNIQUE INDEX mail_choices_pkey ON mail_choices USING btree (user_id, kind)
CREATE INDEX mail_outbox_due_idx ON mail_outbox USING btree (next_attempt_at) WHERE ((sent_at IS NULL) AND (failed_at IS NULL))
CREATE UNIQUE INDEX mail_outbox_pkey ON mail_outbox USING btree (id)
CREATE UNIQUE INDEX member_calendars_pkey ON member_calendars USING btree (user_id)
CREATE UNIQUE INDEX member_calendars_secret_key ON member_calendars USING btree (secret)
CREATE UNIQUE INDEX member_settings_pkey ON member_settings USING btree (user_id)
CREATE INDEX network_pushes_due_idx ON network_pushes USING btree (next_attempt_at) WHERE (status = 'pending'::text)
CREATE UNIQUE INDEX network_pushes_pkey ON network_pushes USING btree (booking_id)
CREATE UNIQUE INDEX notices_sent_pkey ON notices_sent USING btree (key)
CREATE INDEX notices_sent_user_idx ON notices_sent USING btree (user_id)
CREATE UNIQUE INDEX outbox_cursors_pkey ON outbox_cursors USING btree (name)
CREATE UNIQUE INDEX positions_callsign_key ON positions USING btree (callsign)
CREATE UNIQUE INDEX positions_pkey ON positions USING btree (id)
CREATE UNIQUE INDEX report_templates_area_name_key ON report_templates USING btree (area_id, name)
CREATE UNIQUE INDEX report_templates_pkey ON report_templates USING btree (id)
CREATE UNIQUE INDEX roles_division_wide_key ON roles USING btree (user_id, role) WHERE (area_id IS NULL)
CREATE UNIQUE INDEX roles_natural_key ON roles USING btree (user_id, area_id, role)
CREATE UNIQUE INDEX roles_pkey ON roles USING btree (id)
CREATE UNIQUE INDEX roster_staging_pkey ON roster_staging USING btree (run_id, id)
CREATE UNIQUE INDEX sector_migrations_pkey ON sector_migrations USING btree (name)
CREATE UNIQUE INDEX sector_migrations_lock_pkey ON sector_migrations_lock USING btree (id)
CREATE INDEX sessions_last_seen_idx ON sessions USING btree (last_seen_at)
CREATE UNIQUE INDEX sessions_pkey ON sessions USING btree (id_hash)
CREATE INDEX sessions_user_idx ON sessions USING btree (user_id)
CREATE UNIQUE INDEX settings_pkey ON settings USING btree (key)
CREATE INDEX sweatbox_no_overlap ON sweatbox_sessions USING gist (position_id, int8range(time_start, time_end))
CREATE UNIQUE INDEX sweatbox_sessions_pkey ON sweatbox_sessions USING btree (id)
CREATE INDEX sweatbox_sessions_time_idx ON sweatbox_sessions USING btree (time_start, id)
CREATE INDEX tasks_assignee_idx ON tasks USING btree (assignee_id, status)
CREATE INDEX tasks_creator_idx ON tasks USING btree (creator_id, created_at)
CREATE UNIQUE INDEX tasks_pkey ON tasks USING btree (id)
CREATE INDEX tasks_training_idx ON tasks USING btree (training_id)
CREATE INDEX training_attachments_examination_idx ON training_attachments USING btree (examination_id) WHERE (examination_id IS NOT NULL)
CREATE UNIQUE INDEX training_attachments_pkey ON training_attachments USING btree (id)
CREATE INDEX training_attachments_report_idx ON training_attachments USING btree (report_id) WHERE (report_id IS NOT NULL)
CREATE INDEX training_examinations_date_idx ON training_examinations USING btree (examination_date)
CREATE UNIQUE INDEX training_examinations_pkey ON training_examinations USING btree (id)
CREATE INDEX training_examinations_training_idx ON training_examinations USING btree (training_id)
CREATE UNIQUE INDEX training_examiners_examination_id_user_id_key ON training_examiners USING btree (examination_id, user_id)
CREATE UNIQUE INDEX training_examiners_pkey ON training_examiners USING btree (examination_id, ordinal)
CREATE INDEX training_examiners_user_idx ON training_examiners USING btree (user_id)
CREATE UNIQUE INDEX training_facilities_pkey ON training_facilities USING btree (training_id, name)
CREATE UNIQUE INDEX training_links_pkey ON training_links USING btree (id)
CREATE UNIQUE INDEX training_links_token_hash_key ON training_links USING btree (token_hash)
CREATE INDEX training_links_training_idx ON training_links USING btree (training_id)
CREATE UNIQUE INDEX training_mentors_pkey ON training_mentors USING btree (training_id, user_id)
CREATE INDEX training_mentors_user_idx ON training_mentors USING btree (user_id)
CREATE UNIQUE INDEX training_ratings_pk ON training_ratings USING btree (training_id, rating)
CREATE UNIQUE INDEX training_reports_pkey ON training_reports USING btree (id)
CREATE INDEX training_reports_training_idx ON training_reports USING btree (training_id, report_date)
CREATE UNIQUE INDEX training_timeline_pkey ON training_timeline USING btree (id)
CREATE INDEX training_timeline_training_idx ON training_timeline USING btree (training_id, id)
CREATE INDEX trainings_area_status_idx ON trainings USING btree (area_id, status, created_at)
CREATE UNIQUE INDEX trainings_natural_key ON trainings USING btree (user_id, area_id, created_at)
CREATE UNIQUE INDEX trainings_pkey ON trainings USING btree (id)
CREATE INDEX trainings_status_idx ON trainings USING btree (status, user_id)
CREATE UNIQUE INDEX user_area_activity_pk ON user_area_activity USING btree (user_id, area_id)
CREATE UNIQUE INDEX users_pkey ON users USING btree (id)
CREATE UNIQUE INDEX vote_options_pkey ON vote_options USING btree (id)
CREATE UNIQUE INDEX vote_options_position_key ON vote_options USING btree (vote_id, "position")
CREATE UNIQUE INDEX vote_voters_pkey ON vote_voters USING btree (vote_id, user_id)
CREATE INDEX vote_voters_user_idx ON vote_voters USING btree (user_id)
CREATE INDEX votes_open_idx ON votes USING btree (closed_at, closes_at)
CREATE UNIQUE INDEX votes_pkey ON votes USING btree (id)
CREATE INDEX webhook_attempts_at_idx ON webhook_attempts USING btree (at)
CREATE UNIQUE INDEX webhook_attempts_pkey ON webhook_attempts USING btree (id)
CREATE INDEX webhook_attempts_webhook_idx ON webhook_attempts USING btree (webhook_id, id)
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries USING btree (event_seq)
CREATE INDEX webhook_deliveries_open_idx ON webhook_deliveries USING btree (webhook_id, id) WHERE (status = ANY (ARRAY['pending'::text, 'delivering'::text]))
CREATE UNIQUE INDEX webhook_deliveries_pkey ON webhook_deliveries USING btree (id)
CREATE UNIQUE INDEX webhooks_pkey ON webhooks USING btree (id)
-- triggers

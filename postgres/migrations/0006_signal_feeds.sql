-- The hiring and funding feeds read one signal type newest first: walking
-- this index backwards yields their rows in order (id breaks ties of
-- detected_at) and stops after a page.
CREATE INDEX signals_type_detected ON signals(type, detected_at, id);

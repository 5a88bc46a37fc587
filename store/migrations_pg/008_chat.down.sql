DROP TABLE chat_reports;
DROP TABLE chat_settings;
DROP TABLE chat_lines;

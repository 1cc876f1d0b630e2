-- Runs once, when the postgres volume is initialised (docker-entrypoint-initdb.d),
-- as POSTGRES_USER. One server, one database per service; each service applies its
-- own migrations at start-up.
CREATE DATABASE esign;
CREATE DATABASE wildfire;

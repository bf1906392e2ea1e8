"""`make bench`: measured figures of the running system against bare baselines on the same servers.

`python -m devstack.bench` starts the embedded servers (Tansu, SecantusDB, redis-server) and a
MariaDB database of its own, runs each measurement several times, prints a table and writes
bench/results/latest.json (see README "Measured").
"""

"""The embedded stack: real servers shipped as wheels, started as child processes on loopback."""

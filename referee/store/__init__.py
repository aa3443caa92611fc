"""The event store and what is read from it, shared by the box and the web."""

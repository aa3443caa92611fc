"""The box process: its devices, key flows and screens, on one event loop."""

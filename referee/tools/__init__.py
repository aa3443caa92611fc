"""Tools beside the processes: the terminal simulator and the doctor."""

"""The box process (``referee run``): the only writer of the store, with no
network; one event loop owns everything that changes.

A key goes ``hal.keys`` → ``coordinator.Box.on_key`` → the page's flow
(``flows/``, or ``game_menu`` over a game) → ``session.Session.apply`` (the
rules, then the store) → ``coordinator.Box.render`` → ``screen.render`` →
``hal.display``; ``page_keeper`` then saves the page that is up.

- ``service``: the box on a real clock until stopped, with its two sockets:
  ``channel_end`` (the web's requests) and ``sim_control`` (``[sim]
  control``), both served by ``linesock``;
- ``devices``: the devices a configuration asks for, real or simulated;
- ``game_clock``: the game clock, the countdown's ticks, checkpoints;
- ``card``: what the box says when the SD card fails it;
- ``wifi`` and ``address``: where phones reach the box, for every QR code.
"""

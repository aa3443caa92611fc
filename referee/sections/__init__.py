"""Games' own sections of the configuration file: ``[<game>]``, read by
the module the catalogue names (``referee.catalogue.Game.section``).

Such a module gives ``Section``, a ``referee.config.Base`` checked key by
key like every table of the file, and optionally ``beside(table,
folder)``, which makes the paths it names relative to the configuration
file's folder, as its owner reads them.  ``Config.game(name)`` is the
section as read, or its defaults.
"""

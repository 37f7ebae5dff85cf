"""The rooms with a process, a terminal, a network or a configuration.

Importing any of them first tells the import system that httpx's own command
line (`httpx._main`) is not available. `import httpx` tries to import it
whenever its optional dependencies are installed (rich, pygments, click: an
environment with other tools in it has them), which costs about 70 ms of
every process for a program that never runs httpx's command line. A None in
`sys.modules` makes that optional import fail at once, exactly as it fails
where those packages are missing; httpx then defines its stub `main` and
nothing else changes. Set only while httpx is not imported yet.
"""

import sys

if "httpx" not in sys.modules and "httpx._main" not in sys.modules:
    sys.modules["httpx._main"] = None  # type: ignore[assignment]  # the import system's "not available"

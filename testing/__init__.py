"""What tests and benchmarks share: loopback servers (the API, faults, a model),
the generated town, sample notifications, process helpers, and what a
benchmark's `--smoke` run checks at its end (smoke.py).

Neither tests/ nor benchmarks/ imports the other; both import this.
"""

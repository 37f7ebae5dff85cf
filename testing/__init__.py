"""What tests and benchmarks share: loopback servers (the API, faults, a model),
the generated town, sample notifications, and process helpers.

Neither tests/ nor benchmarks/ imports the other; both import this.
"""

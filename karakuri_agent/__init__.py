"""karakuri-agent: an autonomous client for an agent living in Karakuri World."""

__version__ = "0.1.0"

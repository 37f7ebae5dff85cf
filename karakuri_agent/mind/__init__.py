"""The agent's mind as types: who it is (`Persona`, with its pack's behaviour) and what it sees of one
notification (`View`, with the pack's turn). Above behaviour/, whose records both hold; below everything
that reads them (memory, voice, the deciders, the gate)."""

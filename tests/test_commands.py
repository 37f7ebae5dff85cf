"""The command vocabulary is the one list the other modules agree on."""

from karakuri_agent.domain import commands
from karakuri_agent.report import line as report
from karakuri_agent.memory.context import ACTIVITY_LIMIT, MEMORY_LIMIT, RECENT_COMMANDS
from karakuri_agent.state.retention import KEEP_ACTIVITY, KEEP_COMMANDS, KEEP_MEMORY


def test_every_known_command_has_a_report_phrase_and_no_phrase_names_an_unknown_command():
    assert set(report.ACTIONS) == commands.KNOWN


def test_every_grouped_command_is_known():
    groups = [commands.SPEAK, commands.END, commands.ACCEPT_TRANSFER, commands.REJECT_TRANSFER,
              commands.INFORMATION, commands.CONVERSATION, commands.OPENING, commands.CONTACT, commands.RESPONSE]
    assert all(set(group) <= commands.KNOWN for group in groups)


def test_retention_keeps_at_least_what_the_decision_context_reads():
    assert KEEP_ACTIVITY >= ACTIVITY_LIMIT
    assert KEEP_COMMANDS >= RECENT_COMMANDS
    assert KEEP_MEMORY >= MEMORY_LIMIT

import pytest

from karakuri_agent.domain.notification import Choice
from karakuri_agent.params import InvalidParams, merge, validate


def choice(**fields):
    return Choice.from_json({"command": "c", **fields})


def test_choice_params_come_first_and_proposed_values_win():
    c = choice(params={"a": 1, "b": 2})
    assert merge(c, {"b": 3, "m": "x"}) == {"a": 1, "b": 3, "m": "x"}


def test_required_param_missing_is_reported():
    with pytest.raises(InvalidParams, match="message is required"):
        validate(choice(required_params=["message"]), {})


def test_integer_text_is_coerced_but_words_are_not():
    c = choice(param_schema={"duration": {"type": "integer", "minimum": 1, "maximum": 6}})
    assert validate(c, {"duration": "3"}) == {"duration": 3}
    assert validate(c, {"duration": 2.0}) == {"duration": 2}
    with pytest.raises(InvalidParams, match="duration must be integer"):
        validate(c, {"duration": "three"})
    with pytest.raises(InvalidParams, match="must be integer"):
        validate(c, {"duration": True})


@pytest.mark.parametrize("value, problem", [(0, "at least 1"), (7, "at most 6")])
def test_bounds_are_enforced(value, problem):
    c = choice(param_schema={"duration": {"type": "integer", "minimum": 1, "maximum": 6}})
    with pytest.raises(InvalidParams, match=problem):
        validate(c, {"duration": value})


def test_enum_and_max_length_are_enforced():
    c = choice(param_schema={"node": {"type": "string", "enum": ["1-1", "2-2"]},
                             "message": {"type": "string", "maxLength": 5}})
    assert validate(c, {"node": "2-2", "message": "やあ"}) == {"node": "2-2", "message": "やあ"}
    with pytest.raises(InvalidParams) as raised:
        validate(c, {"node": "9-9", "message": "123456"})
    assert len(raised.value.problems) == 2


def test_array_items_are_checked():
    c = choice(param_schema={"ids": {"type": "array", "items": {"type": "string"}, "maxItems": 2}})
    with pytest.raises(InvalidParams, match=r"ids\[1\] must be string"):
        validate(c, {"ids": ["a", 1]})
    with pytest.raises(InvalidParams, match="at most 2 items"):
        validate(c, {"ids": ["a", "b", "c"]})


def test_nested_object_properties_are_checked():
    c = choice(param_schema={"item": {"type": "object", "required": ["item_id"],
                                      "properties": {"item_id": {"type": "string"},
                                                     "quantity": {"type": "integer", "minimum": 1}}}})
    assert validate(c, {"item": {"item_id": "tea", "quantity": "2"}}) == {"item": {"item_id": "tea", "quantity": 2}}
    with pytest.raises(InvalidParams, match="item.item_id is required"):
        validate(c, {"item": {"quantity": 1}})


def test_unknown_param_is_refused_when_a_schema_exists():
    c = choice(param_schema={"message": {"type": "string"}})
    with pytest.raises(InvalidParams, match="hack is not a parameter"):
        validate(c, {"message": "x", "hack": 1})


def test_notification_id_never_goes_inside_params():
    with pytest.raises(InvalidParams, match="notification_id"):
        validate(choice(), {"notification_id": "notif-x"})


def test_without_schema_any_object_passes():
    assert validate(choice(), {"anything": [1]}) == {"anything": [1]}


def test_malformed_schema_bounds_are_ignored_rather_than_crashing():
    c = choice(param_schema={"n": {"type": "integer", "minimum": "1", "enum": "abc"}})
    assert validate(c, {"n": 5}) == {"n": 5}

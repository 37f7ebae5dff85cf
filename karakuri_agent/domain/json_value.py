"""What strict JSON carries, as one type: a command's params, a pack's memory, what people told.

A leaf of the package: records, the View and the decision all hold JSON
values, and none of them should import another to name the type.
"""

from __future__ import annotations

JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]

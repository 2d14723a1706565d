"""The released features (`hf_features`) and the stage schema (`DIALOGUE_SCHEMA`) describe the same
record: every field, nested field and value kind agrees (images add only the embedded `image`)."""

from __future__ import annotations

import polars as pl
import pyarrow as pa

from builder.records import DIALOGUE_SCHEMA, conform, hf_features


def _shape(t: pa.DataType):
    if pa.types.is_struct(t):
        return {t.field(i).name: _shape(t.field(i).type) for i in range(t.num_fields)}
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return [_shape(t.value_type)]
    for kind, test in (("string", pa.types.is_string), ("string", pa.types.is_large_string),
                       ("bool", pa.types.is_boolean), ("timestamp", pa.types.is_timestamp)):
        if test(t):
            return kind if kind != "timestamp" else f"timestamp[{t.unit},{t.tz}]"
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        return str(t)
    raise AssertionError(f"unexpected type {t}")


def _schema_shape(schema: pa.Schema) -> dict:
    return {f.name: _shape(f.type) for f in schema}


def test_released_features_match_the_stage_schema_field_by_field():
    stage = _schema_shape(pl.DataFrame(schema=DIALOGUE_SCHEMA).to_arrow().schema)
    released = _schema_shape(hf_features(embed_images=False).arrow_schema)
    assert released == stage


def test_embedded_images_add_only_the_image_column():
    plain = hf_features(embed_images=False)["turns"]
    embedded = hf_features(embed_images=True)["turns"]
    image_plain, image_embedded = plain.feature["images"].feature, embedded.feature["images"].feature
    assert set(image_embedded) - set(image_plain) == {"image"}


def test_a_conformed_frame_has_exactly_the_schema():
    df = conform(pl.DataFrame({"dialogue_id": ["x"]}))
    assert df.schema == DIALOGUE_SCHEMA

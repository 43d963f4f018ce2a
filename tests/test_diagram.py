"""The pipeline diagram: valid SVG, every stage drawn, exactly the asked stages marked."""

import xml.etree.ElementTree as ET

import pytest

from ragmath.lab.notebook.diagram import STAGES, pipeline_diagram

SVG = "{http://www.w3.org/2000/svg}"


def _stages(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)
    return {group.get("data-stage"): group.get("class") for group in root.iter(f"{SVG}g")}


def test_svg_parses_and_draws_every_stage():
    drawn = _stages(pipeline_diagram().svg)
    assert set(drawn) == set(STAGES)
    assert all(css == "stage" for css in drawn.values())


def test_highlighted_stage_is_marked_and_no_other():
    svg = pipeline_diagram(highlight="rerank").svg
    drawn = _stages(svg)
    assert drawn["rerank"] == "stage highlight"
    assert [key for key, css in drawn.items() if css != "stage"] == ["rerank"]
    assert svg.count("you are here") == 1


def test_several_stages_can_be_marked():
    drawn = _stages(pipeline_diagram(highlight=["bm25", "vector", "rrf"]).svg)
    assert {key for key, css in drawn.items() if "highlight" in css} == {"bm25", "vector", "rrf"}


def test_chinese_and_english_labels_are_both_drawn():
    root = ET.fromstring(pipeline_diagram().svg)
    texts = {element.text for element in root.iter(f"{SVG}text")}
    assert {"重排", "rerank", "引用校验", "citation check"} <= texts


def test_unknown_stage_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown stage 'reranker'.*rerank"):
        pipeline_diagram(highlight="reranker")


def test_jupyter_shows_the_svg_text():
    diagram = pipeline_diagram(highlight="cite")
    assert diagram._repr_svg_() == diagram.svg


def test_svg_scales_to_the_cell_width_instead_of_a_fixed_size():
    # a fixed width="1060" is cut at the right in a cell narrower than 1060 px (file browser open)
    root = ET.fromstring(pipeline_diagram().svg)
    assert root.get("width") == "100%"
    assert root.get("height") is None
    x, y, width, height = (float(v) for v in root.get("viewBox").split())
    assert (x, y) == (0, 0) and width > height > 0
    assert f"max-width: {width:g}px" in root.get("style")
    # every box lies inside the viewBox, so scaling never hides a stage
    for rect in root.iter(f"{SVG}rect"):
        assert float(rect.get("x")) + float(rect.get("width")) <= width
        assert float(rect.get("y")) + float(rect.get("height")) <= height

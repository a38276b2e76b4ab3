# tests/unit/display.cmake: tests of src/display (docs/internals/display.md) on
# hand-built reports: the display model, golden text and HTML, the flame SVG checked by
# an XML parser; the fast paths of big pages against reference code (test_display_fast);
# test_display_bench (run by hand) times the rendering of big pages.
set(DP_DISP_REP ${CMAKE_CURRENT_LIST_DIR}/test_display_rep.c)
foreach(t test_display test_display_text test_display_html test_display_fast)
	if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
		dp_unit_test(${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.c ${DP_DISP_REP})
		target_link_libraries(${t} PRIVATE dp_display)
	endif()
endforeach()

# The flame SVGs test_display_html writes must be well-formed XML: parsed with Python's
# minidom, every rect has a positive width, every link an href, every label starts
# inside its rect.
if(TARGET test_display_html)
	set_tests_properties(test_display_html PROPERTIES FIXTURES_SETUP dp_display_svg)
	find_package(Python3 COMPONENTS Interpreter)
	if(Python3_FOUND)
		set(DP_SVG_CHECK [=[
import sys, xml.dom.minidom as m
for path in sys.argv[1:]:
    d = m.parse(path)
    svg = d.documentElement
    assert svg.tagName == 'svg', path
    rects = d.getElementsByTagName('rect')
    assert len(rects) == 5, (path, len(rects))
    for g in d.getElementsByTagName('g'):
        r = g.getElementsByTagName('rect')[0]
        x, w = float(r.getAttribute('x')), float(r.getAttribute('width'))
        assert w > 0, path
        assert len(g.getElementsByTagName('title')) == 1, path
        for t in g.getElementsByTagName('text'):
            assert x <= float(t.getAttribute('x')) < x + w, path
    for a in d.getElementsByTagName('a'):
        assert a.getAttribute('href').startswith('/?file=0&page='), path
print('ok')
]=])
		add_test(NAME display_svg_wellformed
			COMMAND ${Python3_EXECUTABLE} -c "${DP_SVG_CHECK}"
				${CMAKE_CURRENT_BINARY_DIR}/display_flame.svg
				${CMAKE_CURRENT_BINARY_DIR}/display_flame_callers.svg)
		set_tests_properties(display_svg_wellformed PROPERTIES LABELS unit TIMEOUT 60
			FIXTURES_REQUIRED dp_display_svg)
	endif()
endif()

add_executable(test_display_bench ${CMAKE_CURRENT_LIST_DIR}/test_display_bench.c ${DP_DISP_REP})
target_include_directories(test_display_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(test_display_bench PRIVATE dp_display)
dp_warnings(test_display_bench)
dp_sanitize(test_display_bench)

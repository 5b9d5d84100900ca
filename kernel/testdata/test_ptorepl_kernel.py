"""Jupyter's kernel conformance suite (jupyter_kernel_test) against ptorepl.

Every feature attribute is set, so none of the 12 tests is skipped. Run with
the kernelspec installed under JUPYTER_DATA_DIR (see kernel_test.go).
"""
import os
import unittest

import jupyter_kernel_test


class PtoreplKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = os.environ.get("PTOREPL_KERNEL_NAME", "ptorepl-test")
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'fmt.Println("hello, world")'
    code_stderr = 'fmt.Fprintln(os.Stderr, "oops")'

    completion_samples = [
        {"text": "pld.AllRed", "matches": {"pld.AllReduce"}},
        {"text": "strings.TrimSp", "matches": {"strings.TrimSpace", "strings.TrimSpace"}},
    ]
    complete_code_samples = ["x := 1", "fmt.Println(2)", "func f() int {\n\treturn 1\n}"]
    incomplete_code_samples = ["func f() {", "x := []int{1,", "y := 1 +"]
    invalid_code_samples = ["x := )", "func f() }"]

    code_page_something = "?pld.Put"
    code_generate_error = 'panic("boom")'
    code_execute_result = [
        {"code": "6 * 7", "result": "42"},
        {"code": '"ab" + "c"', "result": '"abc"'},
    ]
    code_display_data = [
        {"code": 'display.HTML("<b>hi</b>")', "mime": "text/html"},
        {"code": 'display.Markdown("*hi*")', "mime": "text/markdown"},
    ]
    code_history_pattern = "6 *"
    supported_history_operations = ("tail", "range", "search")
    code_inspect_sample = "pld.Put"
    code_clear_output = "display.Clear(false)"


if __name__ == "__main__":
    unittest.main()

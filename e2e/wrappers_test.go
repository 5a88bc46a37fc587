package e2e

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// pollingQueries are chromedp's actions that look for their selector (or
// evaluate their expression) again and again until it is there, at
// chromedp's default of every 5 ms (or every animation frame). The tests
// use query_test.go's wrappers (waitVisible, clickOn, pollFor, …), which
// poll every pollEvery: see pollEvery for what the default costs.
var pollingQueries = map[string]string{
	"WaitVisible": "waitVisible", "WaitNotPresent": "waitGone", "Click": "clickOn",
	"Focus": "focusOn", "SendKeys": "sendKeys", "Poll": "pollFor",
	"WaitReady": "", "WaitNotVisible": "", "WaitEnabled": "", "WaitSelected": "",
	"DoubleClick": "", "Blur": "", "SetValue": "", "Text": "", "TextContent": "",
	"Value": "", "Nodes": "", "NodeIDs": "", "AttributeValue": "", "Attributes": "",
	"SetAttributeValue": "", "Submit": "", "Reset": "", "Clear": "", "ScrollIntoView": "",
	"Dimensions": "", "OuterHTML": "", "InnerHTML": "", "Query": "", "QueryAfter": "",
	"PollFunction": "", "Screenshot": "screenshotOf", "ScreenshotScale": "",
}

// allowedQueries are the files that may call them directly: the wrappers.
var allowedQueries = map[string]bool{
	"query_test.go": true,
}

// TestQueriesPollGently: no test calls a polling chromedp action directly
// (see pollingQueries); a new test that did would have every waiting tab
// query the page every 5 ms. It reads the package's sources, so it needs
// no browser.
func TestQueriesPollGently(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files here: %v", err)
	}
	fset := token.NewFileSet()
	seen := 0
	for _, name := range files {
		if allowedQueries[name] {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "chromedp" {
				return true
			}
			seen++
			if use, bad := pollingQueries[sel.Sel.Name]; bad {
				if use == "" {
					use = "a wrapper in query_test.go (add one) with chromedp.RetryInterval(pollEvery)"
				}
				t.Errorf("%s: chromedp.%s polls every 5 ms; use %s", fset.Position(sel.Pos()), sel.Sel.Name, use)
			}
			return true
		})
	}
	if seen == 0 {
		t.Fatal("no chromedp call found: the check reads nothing")
	}
}

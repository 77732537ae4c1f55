package flussrpc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestRPCDescriptors reads the descriptors declared in rpc.go and checks
// that each pairs an API key with that API's request and response
// messages: GetTableInfoRequest/Response with GET_TABLE_INFO, and so on.
func TestRPCDescriptors(t *testing.T) {
	fset := token.NewFileSet()
	keys := apiKeyValues(t, fset)
	seen := make(map[string]string)
	for _, spec := range valueSpecs(t, fset, "rpc.go") {
		lit, ok := spec.Values[0].(*ast.CompositeLit)
		if !ok {
			continue
		}
		typ, ok := lit.Type.(*ast.IndexListExpr)
		if !ok || len(typ.Indices) != 2 || len(lit.Elts) != 1 {
			continue
		}
		name := spec.Names[0].Name
		req, resp := pbName(typ.Indices[0]), pbName(typ.Indices[1])
		keyName := lit.Elts[0].(*ast.Ident).Name
		if prev, dup := seen[keyName]; dup {
			t.Errorf("%s and %s both use %s", prev, name, keyName)
		}
		seen[keyName] = name
		if want := "rpc" + strings.TrimPrefix(keyName, "APIKey"); name != want {
			t.Errorf("descriptor of %s is named %s, want %s", keyName, name, want)
		}
		base, isReq := strings.CutSuffix(req, "Request")
		if !isReq || resp != base+"Response" {
			t.Errorf("%s pairs %s with %s", name, req, resp)
		}
		key, ok := keys[keyName]
		if !ok {
			t.Errorf("%s uses %s, which is no API key constant", name, keyName)
			continue
		}
		if got, want := squash(key.String()), squash(messageAPI(base)); got != want {
			t.Errorf("%s sends %s under %s", name, req, key)
		}
	}
	if len(seen) < 40 {
		t.Errorf("found %d descriptors in rpc.go; the parse missed some", len(seen))
	}
}

// apiKeyValues maps each APIKey constant name of apikeys.go to its key.
func apiKeyValues(t *testing.T, fset *token.FileSet) map[string]APIKey {
	t.Helper()
	keys := make(map[string]APIKey)
	for _, spec := range valueSpecs(t, fset, "apikeys.go") {
		if lit, ok := spec.Values[0].(*ast.BasicLit); ok && lit.Kind == token.INT {
			v, err := strconv.ParseInt(lit.Value, 10, 16)
			if err != nil {
				t.Fatal(err)
			}
			keys[spec.Names[0].Name] = APIKey(v)
		}
	}
	return keys
}

// valueSpecs returns the single-valued const and var declarations of a
// file of this package.
func valueSpecs(t *testing.T, fset *token.FileSet, file string) []*ast.ValueSpec {
	t.Helper()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var specs []*ast.ValueSpec
	ast.Inspect(f, func(n ast.Node) bool {
		if spec, ok := n.(*ast.ValueSpec); ok && len(spec.Values) == 1 {
			specs = append(specs, spec)
		}
		return true
	})
	return specs
}

// pbName returns X of a *pb.X type expression.
func pbName(e ast.Expr) string {
	star, ok := e.(*ast.StarExpr)
	if !ok {
		return ""
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	return sel.Sel.Name
}

// messageAPI spells a message's base name the way the server names its API
// (ListAcls -> LIST_ACLS). The one message named apart from its API is
// MetadataRequest, sent as GET_METADATA.
func messageAPI(base string) string {
	if base == "Metadata" {
		base = "GetMetadata"
	}
	var b strings.Builder
	for i, r := range base {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// squash drops underscores, so FILESYSTEM and FILE_SYSTEM compare equal.
func squash(s string) string { return strings.ReplaceAll(s, "_", "") }

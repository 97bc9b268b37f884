package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/builtins"
)

// The embedded rules run from a plan: OPA's planner turned the compiled
// policies and the engine's query into an imperative program, an
// *ir.Policy (Plan, at build time), and planEval runs it. The semantics are
// those of OPA's IR specification, docs/docs/ir.md in OPA's module
// (github.com/open-policy-agent/opa@v1.22.3; the types are v1/ir/ir.go);
// where the specification leaves a detail open, planEval does what OPA's
// own compiler of plans does, internal/compiler/wasm/wasm.go (compileBlock
// and the functions it calls), and says so below.
//
//   - Locals are a function's (or the plan's) frame; local 0 is the input
//     document and local 1 the data document (for ckptlint an empty object:
//     the embedded rules read no data). A local that was never assigned, or
//     was reset, is undefined (nil).
//   - A block runs its statements in order. A statement whose input is
//     undefined, or that is undefined by its definition (a failed DotStmt,
//     EqualStmt, ...), ends the block, as BreakStmt{Index: 0} does;
//     BreakStmt{Index: n} also leaves the n enclosing blocks. The blocks of
//     a BlockStmt each count as one, as the block of a NotStmt does; a
//     ScanStmt counts as two (wasm.go compileScan: a loop inside a block), so
//     leaving its block continues with the next element and leaving one more
//     ends the scan.
//   - A ScanStmt runs its block once per element, keys and values in the
//     order OPA's ast iterates them (sorted, as topdown does), and execution
//     then continues after it, also when there was no element (wasm.go:
//     `every x in [] {...}` holds that way).
//   - CallStmt calls a planned function (arguments input, data and the
//     rule's own) or a built-in: always OPA's own implementation, looked up
//     with topdown.GetBuiltin, with strict built-in errors as the topdown
//     path has them (rego.StrictBuiltinErrors). An undefined result makes
//     the statement undefined. A function of the input and data alone (two
//     parameters: a rule without arguments) is evaluated once per
//     evaluation (memoised, as wasm.go compileFunc does and as topdown
//     caches a rule's value).
//   - AssignVarStmt copies a local even when it is undefined (wasm.go).
//   - LenStmt is defined on arrays, objects and sets, which is all the
//     planner asks it for (unifying with an array or object literal).
//   - Every body of a rule runs, in order, as the planner lays them out;
//     topdown skips the bodies its rule index rules out and stops at the
//     first body of a rule whose bodies all give the same constant. The
//     values are the same; only a built-in's error in a body topdown never
//     runs (a value of a type no rule expects, which model.Input does not
//     build) is an error here alone (differential_test.go, same).
//
// newPlan refuses a plan that uses a statement the embedded rules' plan
// does not (WithStmt, CallDynamicStmt, ObjectMergeStmt) rather than run
// code that no test exercises: `go generate ./policies` then fails and
// names it, and the evaluator must learn it, with a differential test,
// before the plan can change.

// plan is a policy prepared for planEval: the string constants as terms and
// the functions and built-ins by name. It is read-only and shared by every
// evaluation. Preparing it walks no statement (a fresh process would fault
// in the whole 3 MB plan to do so): newPlan's checks ran when the plan was
// generated (Plan, TestEmbeddedPlanChecks), and a function's frame size is
// found when it is first called.
type plan struct {
	policy  *ir.Policy
	strings []*ast.Term // Static.Strings as strings (StringIndex operands)
	numbers []*ast.Term // the same as numbers, nil where one is not
	files   []string
	funcs   []*planFunc
	callees map[string]*callee // planned functions and built-ins by name
	main    *ir.Plan
	frame   int // locals of main
	caps    *ast.Capabilities
}

type planFunc struct {
	fn        *ir.Func
	index     int
	memo      bool // two parameters, input and data: one value per evaluation
	frameOnce sync.Once
	frame     int // number of locals
}

// callee is what a CallStmt calls: a planned function or a built-in.
type callee struct {
	fn       *planFunc
	builtin  topdown.BuiltinFunc
	relation bool // a built-in that yields several values (walk): collected in an array
	void     bool // a built-in without a result (print): defined once called
}

// preparePlan prepares p for evaluation, checking only what it indexes.
func preparePlan(p *ir.Policy) (*plan, error) {
	if p.Static == nil || p.Plans == nil || len(p.Plans.Plans) != 1 {
		return nil, errors.New("plan: want one plan")
	}
	pl := &plan{policy: p, main: p.Plans.Plans[0], callees: map[string]*callee{}, caps: Capabilities()}
	pl.strings = make([]*ast.Term, len(p.Static.Strings))
	pl.numbers = make([]*ast.Term, len(p.Static.Strings))
	for i, s := range p.Static.Strings {
		pl.strings[i] = ast.StringTerm(s.Value)
		if isNumber(s.Value) {
			pl.numbers[i] = ast.NumberTerm(json.Number(s.Value))
		}
	}
	for _, f := range p.Static.Files {
		pl.files = append(pl.files, f.Value)
	}
	for _, b := range p.Static.BuiltinFuncs {
		bi, decl := topdown.GetBuiltin(b.Name), ast.BuiltinMap[b.Name]
		if bi == nil || decl == nil {
			return nil, fmt.Errorf("plan: built-in %s has no implementation in OPA's topdown", b.Name)
		}
		pl.callees[b.Name] = &callee{builtin: bi, relation: decl.Relation, void: decl.Decl.Result() == nil}
	}
	if p.Funcs != nil {
		for i, fn := range p.Funcs.Funcs {
			f := &planFunc{fn: fn, index: i, memo: len(fn.Params) == 2}
			pl.funcs = append(pl.funcs, f)
			pl.callees[fn.Name] = &callee{fn: f}
		}
	}
	pl.frame = max(frameSize(pl.main.Blocks), int(ir.Data)+1)
	return pl, nil
}

// isNumber reports whether s is a JSON number, as the planner writes a
// number constant.
func isNumber(s string) bool {
	return s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Valid([]byte(s))
}

// newPlan prepares p and checks all of it: every statement is one planEval
// runs, every function and built-in called exists with the arguments it
// takes, every constant is in range. Plan runs it on every plan it makes.
func newPlan(p *ir.Policy) (*plan, error) {
	pl, err := preparePlan(p)
	if err != nil {
		return nil, err
	}
	var walkErr error
	check := func(blocks []*ir.Block) {
		walkBlocks(blocks, func(s ir.Stmt) {
			if walkErr == nil {
				walkErr = pl.check(s, func(ir.Local) {})
			}
		})
	}
	check(pl.main.Blocks)
	for _, f := range pl.funcs {
		check(f.fn.Blocks)
	}
	return pl, walkErr
}

// frameSize is the number of locals blocks use.
func frameSize(blocks []*ir.Block) int {
	frame := 0
	use := func(l ir.Local) { frame = max(frame, int(l)+1) }
	walkBlocks(blocks, func(s ir.Stmt) { _ = locals(s, use) })
	return frame
}

// frameOf is the number of locals of f, found on its first call.
func (f *planFunc) frameOf() int {
	f.frameOnce.Do(func() {
		f.frame = frameSize(f.fn.Blocks)
		for _, l := range f.fn.Params {
			f.frame = max(f.frame, int(l)+1)
		}
		f.frame = max(f.frame, int(f.fn.Return)+1)
	})
	return f.frame
}

// walkBlocks calls visit for every statement of blocks, nested ones too.
func walkBlocks(blocks []*ir.Block, visit func(ir.Stmt)) {
	for _, b := range blocks {
		for _, s := range b.Stmts {
			visit(s)
			switch s := s.(type) {
			case *ir.BlockStmt:
				walkBlocks(s.Blocks, visit)
			case *ir.ScanStmt:
				walkBlocks([]*ir.Block{s.Block}, visit)
			case *ir.NotStmt:
				walkBlocks([]*ir.Block{s.Block}, visit)
			case *ir.WithStmt:
				walkBlocks([]*ir.Block{s.Block}, visit)
			}
		}
	}
}

// check checks one statement (newPlan) and reports the locals it names.
func (pl *plan) check(s ir.Stmt, use func(ir.Local)) error {
	if err := locals(s, use); err != nil {
		return fmt.Errorf("plan: planEval does not run %T (%s)", s, pl.at(s))
	}
	strIndex := func(o ir.Operand) error {
		if v, ok := o.Value.(ir.StringIndex); ok && (int(v) < 0 || int(v) >= len(pl.strings)) {
			return fmt.Errorf("plan: string constant %d out of range (%s)", v, pl.at(s))
		}
		return nil
	}
	var err error
	forOperands(s, func(o ir.Operand) {
		if err == nil {
			err = strIndex(o)
		}
	})
	if err != nil {
		return err
	}
	switch s := s.(type) {
	case *ir.CallStmt:
		c := pl.callees[s.Func]
		switch {
		case c == nil:
			return fmt.Errorf("plan: %s calls %s, which is neither a planned function nor a built-in", pl.at(s), s.Func)
		case c.fn != nil && len(s.Args) != len(c.fn.fn.Params):
			return fmt.Errorf("plan: %s called with %d arguments, has %d parameters", s.Func, len(s.Args), len(c.fn.fn.Params))
		}
	case *ir.MakeNumberRefStmt:
		if s.Index < 0 || s.Index >= len(pl.numbers) || pl.numbers[s.Index] == nil {
			return fmt.Errorf("plan: number constant %d is not a number (%s)", s.Index, pl.at(s))
		}
	}
	return nil
}

// forOperands calls fn with every operand of s.
func forOperands(s ir.Stmt, fn func(ir.Operand)) {
	switch s := s.(type) {
	case *ir.CallStmt:
		for _, a := range s.Args {
			fn(a)
		}
	case *ir.DotStmt:
		fn(s.Source)
		fn(s.Key)
	case *ir.LenStmt:
		fn(s.Source)
	case *ir.AssignVarStmt:
		fn(s.Source)
	case *ir.AssignVarOnceStmt:
		fn(s.Source)
	case *ir.EqualStmt:
		fn(s.A)
		fn(s.B)
	case *ir.NotEqualStmt:
		fn(s.A)
		fn(s.B)
	case *ir.IsArrayStmt:
		fn(s.Source)
	case *ir.IsObjectStmt:
		fn(s.Source)
	case *ir.IsSetStmt:
		fn(s.Source)
	case *ir.ArrayAppendStmt:
		fn(s.Value)
	case *ir.ObjectInsertStmt:
		fn(s.Key)
		fn(s.Value)
	case *ir.ObjectInsertOnceStmt:
		fn(s.Key)
		fn(s.Value)
	case *ir.SetAddStmt:
		fn(s.Value)
	}
}

// locals reports the locals s names, its operands' included; it fails on a
// statement planEval does not run.
func locals(s ir.Stmt, use func(ir.Local)) error {
	forOperands(s, func(o ir.Operand) {
		if l, ok := o.Value.(ir.Local); ok {
			use(l)
		}
	})
	switch s := s.(type) {
	case *ir.CallStmt:
		use(s.Result)
	case *ir.MakeNumberRefStmt:
		use(s.Target)
	case *ir.ReturnLocalStmt:
		use(s.Source)
	case *ir.BlockStmt, *ir.BreakStmt, *ir.NopStmt, *ir.NotStmt,
		*ir.EqualStmt, *ir.NotEqualStmt, *ir.IsArrayStmt, *ir.IsObjectStmt, *ir.IsSetStmt:
	case *ir.ScanStmt:
		use(s.Source)
		use(s.Key)
		use(s.Value)
	case *ir.DotStmt:
		use(s.Target)
	case *ir.LenStmt:
		use(s.Target)
	case *ir.AssignIntStmt:
		use(s.Target)
	case *ir.AssignVarStmt:
		use(s.Target)
	case *ir.AssignVarOnceStmt:
		use(s.Target)
	case *ir.ResetLocalStmt:
		use(s.Target)
	case *ir.MakeNullStmt:
		use(s.Target)
	case *ir.MakeNumberIntStmt:
		use(s.Target)
	case *ir.MakeArrayStmt:
		use(s.Target)
	case *ir.MakeObjectStmt:
		use(s.Target)
	case *ir.MakeSetStmt:
		use(s.Target)
	case *ir.IsDefinedStmt:
		use(s.Source)
	case *ir.IsUndefinedStmt:
		use(s.Source)
	case *ir.ArrayAppendStmt:
		use(s.Array)
	case *ir.ObjectInsertStmt:
		use(s.Object)
	case *ir.ObjectInsertOnceStmt:
		use(s.Object)
	case *ir.SetAddStmt:
		use(s.Set)
	case *ir.ResultSetAddStmt:
		use(s.Value)
	default:
		return errors.New("not run")
	}
	return nil
}

// at renders a statement's location as file:line.
func (pl *plan) at(s ir.Stmt) string {
	l := s.GetLocation()
	if l.File >= 0 && l.File < len(pl.files) {
		return fmt.Sprintf("%s:%d", pl.files[l.File], l.Row)
	}
	return fmt.Sprintf("line %d", l.Row)
}

// What running a statement or block says about control flow: go on with
// the next statement (next), leave the current block and n enclosing ones
// (n >= 0; an undefined statement is 0), or return from the function
// (unwind).
const (
	next   = -1
	unwind = math.MaxInt
)

var (
	trueTerm  = ast.BooleanTerm(true)
	falseTerm = ast.BooleanTerm(false)
	// undefinedMemo marks a memoised function whose value is undefined
	// (its own term: ast.NullTerm is interned).
	undefinedMemo = &ast.Term{Value: ast.Null{}}
)

// planEval is one evaluation of a plan.
type planEval struct {
	p       *plan
	ctx     context.Context
	stack   []*ast.Term // the frames of the calls in progress
	top     int
	args    []*ast.Term // a CallStmt's arguments, copied by the callee before it runs
	memo    []*ast.Term
	ret     *ast.Term // what the ReturnLocalStmt being unwound returns
	out     *ast.Term // a built-in's result
	outs    []*ast.Term
	iter    func(*ast.Term) error // sets out
	iterAll func(*ast.Term) error // appends to outs (relations)
	cache   builtins.Cache
	steps   int
	results []*ast.Term
}

// eval runs the plan on one input document and returns its result set: an
// object per solution with the query's variables.
func (pl *plan) eval(ctx context.Context, input ast.Value) ([]*ast.Term, error) {
	x := &planEval{p: pl, ctx: ctx, stack: make([]*ast.Term, 0, 1024), memo: make([]*ast.Term, len(pl.funcs)), cache: builtins.Cache{}}
	x.iter = x.setOut
	x.iterAll = x.addOut
	fr := x.push(pl.frame)
	fr[ir.Input] = ast.NewTerm(input)
	fr[ir.Data] = ast.NewTerm(ast.NewObject())
	for _, b := range pl.main.Blocks {
		if _, err := x.block(fr, b); err != nil {
			return nil, err
		}
	}
	return x.results, nil
}

func (x *planEval) setOut(t *ast.Term) error { x.out = t; return nil }
func (x *planEval) addOut(t *ast.Term) error { x.outs = append(x.outs, t); return nil }

// push returns a frame of n undefined locals on top of the stack.
func (x *planEval) push(n int) []*ast.Term {
	if x.top+n > cap(x.stack) {
		// Frames in progress keep the old array; the new one starts empty
		// above them, and every frame is cleared when pushed.
		x.stack = make([]*ast.Term, x.top, 2*cap(x.stack)+n)
	}
	fr := x.stack[x.top : x.top+n : x.top+n]
	clear(fr)
	x.top += n
	return fr
}

// block runs the statements of b; it returns next when it ran to its end.
func (x *planEval) block(fr []*ast.Term, b *ir.Block) (int, error) {
	for _, s := range b.Stmts {
		n, err := x.stmt(fr, s)
		if err != nil || n != next {
			return n, err
		}
	}
	return next, nil
}

// operand is the value of o, nil when undefined.
func (x *planEval) operand(fr []*ast.Term, o ir.Operand) *ast.Term {
	switch v := o.Value.(type) {
	case ir.Local:
		return fr[v]
	case ir.StringIndex:
		return x.p.strings[v]
	case ir.Bool:
		if v {
			return trueTerm
		}
		return falseTerm
	}
	return nil
}

func (x *planEval) stmt(fr []*ast.Term, s ir.Stmt) (int, error) {
	switch s := s.(type) {
	case *ir.CallStmt:
		return x.callStmt(fr, s)
	case *ir.DotStmt:
		src, key := x.operand(fr, s.Source), x.operand(fr, s.Key)
		if src == nil || key == nil {
			return 0, nil
		}
		v := src.Get(key)
		if v == nil {
			return 0, nil
		}
		fr[s.Target] = v
	case *ir.AssignVarStmt:
		fr[s.Target] = x.operand(fr, s.Source)
	case *ir.AssignVarOnceStmt:
		v := x.operand(fr, s.Source)
		if v == nil {
			return 0, nil
		}
		if cur := fr[s.Target]; cur != nil && !cur.Equal(v) {
			return 0, x.fail(s, topdown.ConflictErr, "complete rules must not produce multiple outputs")
		}
		fr[s.Target] = v
	case *ir.ResetLocalStmt:
		fr[s.Target] = nil
	case *ir.IsDefinedStmt:
		if fr[s.Source] == nil {
			return 0, nil
		}
	case *ir.IsUndefinedStmt:
		if fr[s.Source] != nil {
			return 0, nil
		}
	case *ir.NotEqualStmt:
		a, b := x.operand(fr, s.A), x.operand(fr, s.B)
		if a == nil || b == nil || a.Equal(b) {
			return 0, nil
		}
	case *ir.EqualStmt:
		a, b := x.operand(fr, s.A), x.operand(fr, s.B)
		if a == nil || b == nil || !a.Equal(b) {
			return 0, nil
		}
	case *ir.BlockStmt:
		for _, b := range s.Blocks {
			n, err := x.block(fr, b)
			if err != nil || n == unwind {
				return n, err
			}
			if n >= 1 {
				return n - 1, nil
			}
		}
	case *ir.ScanStmt:
		return x.scan(fr, s)
	case *ir.NotStmt:
		n, err := x.block(fr, s.Block)
		switch {
		case err != nil || n == unwind:
			return n, err
		case n == next: // the negated block held
			return 0, nil
		case n >= 1:
			return n - 1, nil
		}
	case *ir.BreakStmt:
		return int(s.Index), nil
	case *ir.ReturnLocalStmt:
		x.ret = fr[s.Source]
		return unwind, nil
	case *ir.MakeObjectStmt:
		fr[s.Target] = ast.NewTerm(ast.NewObject())
	case *ir.MakeArrayStmt:
		fr[s.Target] = ast.NewTerm(ast.NewArray(make([]*ast.Term, 0, s.Capacity)...))
	case *ir.MakeSetStmt:
		fr[s.Target] = ast.NewTerm(ast.NewSet())
	case *ir.MakeNullStmt:
		fr[s.Target] = ast.NullTerm()
	case *ir.MakeNumberIntStmt:
		fr[s.Target] = ast.IntNumberTerm(int(s.Value))
	case *ir.MakeNumberRefStmt:
		fr[s.Target] = x.p.numbers[s.Index]
	case *ir.AssignIntStmt:
		fr[s.Target] = ast.IntNumberTerm(int(s.Value))
	case *ir.ObjectInsertStmt:
		k, v := x.operand(fr, s.Key), x.operand(fr, s.Value)
		obj, ok := termObject(fr[s.Object])
		if k == nil || v == nil || !ok {
			return 0, nil
		}
		obj.Insert(k, v)
	case *ir.ObjectInsertOnceStmt:
		k, v := x.operand(fr, s.Key), x.operand(fr, s.Value)
		obj, ok := termObject(fr[s.Object])
		if k == nil || v == nil || !ok {
			return 0, nil
		}
		if cur := obj.Get(k); cur != nil && !cur.Equal(v) {
			return 0, x.fail(s, topdown.ConflictErr, "object keys must be unique")
		}
		obj.Insert(k, v)
	case *ir.ArrayAppendStmt:
		v, t := x.operand(fr, s.Value), fr[s.Array]
		if v == nil || t == nil {
			return 0, nil
		}
		arr, ok := t.Value.(*ast.Array)
		if !ok {
			return 0, nil
		}
		t.Value = arr.Append(v)
	case *ir.SetAddStmt:
		v, t := x.operand(fr, s.Value), fr[s.Set]
		if v == nil || t == nil {
			return 0, nil
		}
		set, ok := t.Value.(ast.Set)
		if !ok {
			return 0, nil
		}
		set.Add(v)
	case *ir.IsArrayStmt:
		v := x.operand(fr, s.Source)
		if v == nil {
			return 0, nil
		}
		if _, ok := v.Value.(*ast.Array); !ok {
			return 0, nil
		}
	case *ir.IsObjectStmt:
		if _, ok := termObject(x.operand(fr, s.Source)); !ok {
			return 0, nil
		}
	case *ir.IsSetStmt:
		v := x.operand(fr, s.Source)
		if v == nil {
			return 0, nil
		}
		if _, ok := v.Value.(ast.Set); !ok {
			return 0, nil
		}
	case *ir.LenStmt:
		v := x.operand(fr, s.Source)
		if v == nil {
			return 0, nil
		}
		var n int
		switch c := v.Value.(type) {
		case *ast.Array:
			n = c.Len()
		case ast.Object:
			n = c.Len()
		case ast.Set:
			n = c.Len()
		default:
			return 0, nil
		}
		fr[s.Target] = ast.IntNumberTerm(n)
	case *ir.ResultSetAddStmt:
		if v := fr[s.Value]; v != nil {
			x.results = append(x.results, v)
		}
	case *ir.NopStmt:
	default: // newPlan refused it
		return 0, fmt.Errorf("plan: %T", s)
	}
	return next, nil
}

func termObject(t *ast.Term) (ast.Object, bool) {
	if t == nil {
		return nil, false
	}
	obj, ok := t.Value.(ast.Object)
	return obj, ok
}

// scan runs s's block for every element of its source.
func (x *planEval) scan(fr []*ast.Term, s *ir.ScanStmt) (int, error) {
	src := fr[s.Source]
	if src == nil {
		return next, nil
	}
	out := next
	each := func(k, v *ast.Term) (bool, error) {
		if err := x.tick(); err != nil {
			return false, err
		}
		fr[s.Key], fr[s.Value] = k, v
		n, err := x.block(fr, s.Block)
		switch {
		case err != nil:
			return false, err
		case n == unwind:
			out = unwind
			return false, nil
		case n == 1:
			return false, nil
		case n >= 2:
			out = n - 2
			return false, nil
		}
		return true, nil
	}
	var err error
	switch c := src.Value.(type) {
	case *ast.Array:
		for i := range c.Len() {
			var more bool
			if more, err = each(ast.IntNumberTerm(i), c.Elem(i)); !more {
				break
			}
		}
	case ast.Object:
		c.Until(func(k, v *ast.Term) bool {
			var more bool
			more, err = each(k, v)
			return !more
		})
	case ast.Set:
		c.Until(func(e *ast.Term) bool {
			var more bool
			more, err = each(e, e)
			return !more
		})
	}
	return out, err
}

// tick checks for cancellation now and then.
func (x *planEval) tick() error {
	x.steps++
	if x.steps&1023 == 0 {
		return x.ctx.Err()
	}
	return nil
}

func (x *planEval) callStmt(fr []*ast.Term, s *ir.CallStmt) (int, error) {
	c := x.p.callees[s.Func]
	if c == nil {
		return 0, fmt.Errorf("plan: no function %s (%s)", s.Func, x.p.at(s))
	}
	args := x.args[:0]
	for _, a := range s.Args {
		v := x.operand(fr, a)
		if v == nil {
			return 0, nil
		}
		args = append(args, v)
	}
	x.args = args
	var v *ast.Term
	var err error
	if c.fn != nil {
		v, err = x.call(c.fn, args)
	} else {
		v, err = x.builtin(s, c, args)
	}
	if err != nil {
		return 0, err
	}
	if v == nil {
		return 0, nil
	}
	fr[s.Result] = v
	return next, nil
}

// call runs a planned function; nil is undefined.
func (x *planEval) call(f *planFunc, args []*ast.Term) (*ast.Term, error) {
	if f.memo {
		if v := x.memo[f.index]; v != nil {
			if v == undefinedMemo {
				return nil, nil
			}
			return v, nil
		}
	}
	if err := x.tick(); err != nil {
		return nil, err
	}
	if len(args) != len(f.fn.Params) {
		return nil, fmt.Errorf("plan: %s called with %d arguments, has %d parameters", f.fn.Name, len(args), len(f.fn.Params))
	}
	base := x.top
	fr := x.push(f.frameOf())
	for i, p := range f.fn.Params {
		fr[p] = args[i]
	}
	var ret *ast.Term
	for _, b := range f.fn.Blocks {
		n, err := x.block(fr, b)
		if err != nil {
			x.top = base
			return nil, err
		}
		if n == unwind {
			ret, x.ret = x.ret, nil
			break
		}
	}
	x.top = base
	if f.memo {
		x.memo[f.index] = ret
		if ret == nil {
			x.memo[f.index] = undefinedMemo
		}
	}
	return ret, nil
}

// builtin calls OPA's implementation of a built-in function; nil is
// undefined.
func (x *planEval) builtin(s *ir.CallStmt, c *callee, args []*ast.Term) (*ast.Term, error) {
	bctx := topdown.BuiltinContext{
		Context:      x.ctx,
		Cache:        x.cache,
		Capabilities: x.p.caps,
	}
	x.out, x.outs = nil, x.outs[:0]
	iter := x.iter
	if c.relation {
		iter = x.iterAll
	}
	if err := c.builtin(bctx, args, iter); err != nil {
		return nil, x.builtinError(s, err)
	}
	switch {
	case c.relation:
		return ast.NewTerm(ast.NewArray(append([]*ast.Term(nil), x.outs...)...)), nil
	case c.void:
		return trueTerm, nil
	}
	return x.out, nil
}

// builtinError gives a built-in's error the location of its call, as
// topdown does.
func (x *planEval) builtinError(s ir.Stmt, err error) error {
	var te *topdown.Error
	if errors.As(err, &te) && te.Location == nil {
		l := s.GetLocation()
		file := ""
		if l.File >= 0 && l.File < len(x.p.files) {
			file = x.p.files[l.File]
		}
		te.Location = &ast.Location{File: file, Row: l.Row, Col: l.Col}
		return err
	}
	return fmt.Errorf("%s: %w", x.p.at(s), err)
}

// fail is an evaluation error at s, in topdown's form.
func (x *planEval) fail(s ir.Stmt, code, msg string) error {
	return x.builtinError(s, &topdown.Error{Code: code, Message: msg})
}

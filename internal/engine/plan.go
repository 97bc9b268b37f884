package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
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
//   - MakeSetStmt makes a term whose value is one shared empty set until
//     the first SetAddStmt on it, which gives the term a set of its own
//     (as ArrayAppendStmt gives it a new array), since most sets the plan
//     makes (a partial rule's) stay empty. Only SetAddStmt adds to a set:
//     no statement of the IR and no built-in changes one in place.
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
// evaluation. Preparing it walks no statement of a function (a fresh
// process would fault in the whole 3 MB plan to do so): newPlan's checks
// ran when the plan was generated (Plan, TestEmbeddedPlanChecks), and a
// function is compiled (its frame size found, its statements' callees and
// constants resolved) when it is first called.
type plan struct {
	policy  *ir.Policy
	strings []*ast.Term // Static.Strings as strings (StringIndex operands)
	consts  []*ast.Term // the constant operands (constOperand)
	numbers []*ast.Term // the same as numbers, nil where one is not
	files   []string
	funcs   []*planFunc
	callees map[string]*callee // planned functions and built-ins by name
	main    *ir.Plan
	code    []*code // main's blocks, compiled
	frame   int     // locals of main
	caps    *ast.Capabilities
	evals   sync.Pool // *planEval, reused by eval
}

type planFunc struct {
	fn       *ir.Func
	index    int
	memo     bool // two parameters, input and data: one value per evaluation
	prepOnce sync.Once
	frame    int     // number of locals
	code     []*code // fn.Blocks, compiled
}

// code is an ir.Block compiled for planEval: its statements, each with
// what running it looks up resolved once (compile).
type code struct {
	stmts []op
}

// op is one statement of a block and what compile resolved for it: its
// operands in forOperands' order (a and b), the one local it names besides
// them (local: the target of DotStmt, AssignVarStmt, AssignVarOnceStmt and
// ResetLocalStmt, the source of IsDefinedStmt, IsUndefinedStmt and
// ReturnLocalStmt, a CallStmt's result) and, in ext, a CallStmt's callee
// and arguments and the blocks of a BlockStmt (those of a ScanStmt and a
// NotStmt are blocks[0]). The statement itself stays the source of
// everything else (other locals, indices, locations). An op is small, and
// a block's are contiguous: an evaluation reads thousands of them.
//
// kind is the statement's type, found once at compile: stmt switches on it
// and reads the statement itself only for what the op does not hold, so
// the common statements (assignments, dots, calls, resets, comparisons)
// never load it (an interface type switch first loads the type from the
// statement's itab, the most frequent cache miss of an evaluation in
// `perf annotate`).
type op struct {
	s     ir.Stmt
	a, b  operand
	local int32
	kind  opKind
	ext   *opExt
}

// opKind is an op's statement type (op.kind).
type opKind uint8

const (
	opOther opKind = iota // a statement newPlan refuses
	opCall
	opDot
	opAssignVar
	opAssignVarOnce
	opResetLocal
	opIsDefined
	opIsUndefined
	opNotEqual
	opEqual
	opBlock
	opScan
	opNot
	opBreak
	opReturnLocal
	opMakeObject
	opMakeArray
	opMakeSet
	opMakeNull
	opMakeNumberInt
	opMakeNumberRef
	opAssignInt
	opObjectInsert
	opObjectInsertOnce
	opArrayAppend
	opSetAdd
	opIsArray
	opIsObject
	opIsSet
	opLen
	opResultSetAdd
	opNop
)

// kindOf is the opKind of s.
func kindOf(s ir.Stmt) opKind { return opKinds[reflect.TypeOf(s)] } // opOther when not listed

var opKinds = map[reflect.Type]opKind{
	reflect.TypeFor[*ir.CallStmt]():             opCall,
	reflect.TypeFor[*ir.DotStmt]():              opDot,
	reflect.TypeFor[*ir.AssignVarStmt]():        opAssignVar,
	reflect.TypeFor[*ir.AssignVarOnceStmt]():    opAssignVarOnce,
	reflect.TypeFor[*ir.ResetLocalStmt]():       opResetLocal,
	reflect.TypeFor[*ir.IsDefinedStmt]():        opIsDefined,
	reflect.TypeFor[*ir.IsUndefinedStmt]():      opIsUndefined,
	reflect.TypeFor[*ir.NotEqualStmt]():         opNotEqual,
	reflect.TypeFor[*ir.EqualStmt]():            opEqual,
	reflect.TypeFor[*ir.BlockStmt]():            opBlock,
	reflect.TypeFor[*ir.ScanStmt]():             opScan,
	reflect.TypeFor[*ir.NotStmt]():              opNot,
	reflect.TypeFor[*ir.BreakStmt]():            opBreak,
	reflect.TypeFor[*ir.ReturnLocalStmt]():      opReturnLocal,
	reflect.TypeFor[*ir.MakeObjectStmt]():       opMakeObject,
	reflect.TypeFor[*ir.MakeArrayStmt]():        opMakeArray,
	reflect.TypeFor[*ir.MakeSetStmt]():          opMakeSet,
	reflect.TypeFor[*ir.MakeNullStmt]():         opMakeNull,
	reflect.TypeFor[*ir.MakeNumberIntStmt]():    opMakeNumberInt,
	reflect.TypeFor[*ir.MakeNumberRefStmt]():    opMakeNumberRef,
	reflect.TypeFor[*ir.AssignIntStmt]():        opAssignInt,
	reflect.TypeFor[*ir.ObjectInsertStmt]():     opObjectInsert,
	reflect.TypeFor[*ir.ObjectInsertOnceStmt](): opObjectInsertOnce,
	reflect.TypeFor[*ir.ArrayAppendStmt]():      opArrayAppend,
	reflect.TypeFor[*ir.SetAddStmt]():           opSetAdd,
	reflect.TypeFor[*ir.IsArrayStmt]():          opIsArray,
	reflect.TypeFor[*ir.IsObjectStmt]():         opIsObject,
	reflect.TypeFor[*ir.IsSetStmt]():            opIsSet,
	reflect.TypeFor[*ir.LenStmt]():              opLen,
	reflect.TypeFor[*ir.ResultSetAddStmt]():     opResultSetAdd,
	reflect.TypeFor[*ir.NopStmt]():              opNop,
}

type opExt struct {
	callee *callee // nil if a CallStmt's function is unknown (newPlan refuses it)
	args   []operand
	blocks []*code
}

// operand is an ir.Operand compiled: a local (>= 0) or a constant, ^i for
// plan.consts[i].
type operand int32

// constOperand compiles a constant operand. plan.consts are their terms:
// Static.Strings (StringIndex i is ^i), then the booleans, then nil
// (undefined), for a kind of operand the IR does not have.
func (pl *plan) constOperand(o ir.Operand) operand {
	n := len(pl.strings) // at most maxStrings (preparePlan)
	switch v := o.Value.(type) {
	case ir.StringIndex:
		if int(v) >= 0 && int(v) < n {
			return ^operand(v) //nolint:gosec // G115: v < n <= maxStrings
		}
	case ir.Bool:
		if v {
			return ^operand(n) //nolint:gosec // G115: n <= maxStrings
		}
		return ^operand(n + 1) //nolint:gosec // G115: n <= maxStrings
	}
	return ^operand(n + 2) //nolint:gosec // G115: n <= maxStrings
}

// maxStrings is the most strings a plan may have: operands are int32,
// and the constants after the strings take three more indexes.
const maxStrings = math.MaxInt32 - 3

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
	if len(p.Static.Strings) > maxStrings {
		return nil, fmt.Errorf("plan: %d strings, more than an operand indexes (%d)", len(p.Static.Strings), maxStrings)
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
	pl.consts = append(append(slices.Clip(pl.strings), trueTerm, falseTerm), nil)
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
	pl.code = pl.compile(pl.main.Blocks)
	return pl, nil
}

// compile compiles blocks for planEval.
func (pl *plan) compile(blocks []*ir.Block) []*code {
	out := make([]*code, len(blocks))
	for i, b := range blocks {
		c := &code{stmts: make([]op, len(b.Stmts))}
		for j, s := range b.Stmts {
			c.stmts[j] = pl.compileStmt(s)
		}
		out[i] = c
	}
	return out
}

// compileStmt compiles one statement.
func (pl *plan) compileStmt(s ir.Stmt) op {
	o := op{s: s, kind: kindOf(s)}
	n := 0
	forOperands(s, func(v ir.Operand) {
		switch n {
		case 0:
			o.a = pl.operand(v)
		case 1:
			o.b = pl.operand(v)
		}
		n++
	})
	switch s := s.(type) {
	case *ir.CallStmt:
		o.local = local32(s.Result)
		o.ext = &opExt{callee: pl.callees[s.Func], args: make([]operand, len(s.Args))}
		for i, a := range s.Args {
			o.ext.args[i] = pl.operand(a)
		}
	case *ir.DotStmt:
		o.local = local32(s.Target)
	case *ir.AssignVarStmt:
		o.local = local32(s.Target)
	case *ir.AssignVarOnceStmt:
		o.local = local32(s.Target)
	case *ir.ResetLocalStmt:
		o.local = local32(s.Target)
	case *ir.IsDefinedStmt:
		o.local = local32(s.Source)
	case *ir.IsUndefinedStmt:
		o.local = local32(s.Source)
	case *ir.ReturnLocalStmt:
		o.local = local32(s.Source)
	case *ir.BlockStmt:
		o.ext = &opExt{blocks: pl.compile(s.Blocks)}
	case *ir.ScanStmt:
		o.ext = &opExt{blocks: pl.compile([]*ir.Block{s.Block})}
	case *ir.NotStmt:
		o.ext = &opExt{blocks: pl.compile([]*ir.Block{s.Block})}
	}
	return o
}

// local32 is a local as op.local holds it; a checked plan's locals fit
// (plan.check; TestEmbeddedPlanChecks checks the embedded one).
func local32(l ir.Local) int32 {
	return int32(l) //nolint:gosec // G115: see above
}

// operand compiles an operand.
func (pl *plan) operand(o ir.Operand) operand {
	if l, ok := o.Value.(ir.Local); ok {
		return operand(l) //nolint:gosec // G115: a checked plan's locals are 0..MaxInt32 (plan.check; TestEmbeddedPlanChecks checks the embedded one)
	}
	return pl.constOperand(o)
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

// prepared compiles f on its first call: its number of locals and its
// blocks.
func (f *planFunc) prepared(pl *plan) *planFunc {
	f.prepOnce.Do(func() {
		f.frame = frameSize(f.fn.Blocks)
		for _, l := range f.fn.Params {
			f.frame = max(f.frame, int(l)+1)
		}
		f.frame = max(f.frame, int(f.fn.Return)+1)
		f.code = pl.compile(f.fn.Blocks)
	})
	return f
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
	bad, badLocal := false, ir.Local(0)
	if err := locals(s, func(l ir.Local) {
		if l < 0 || l > math.MaxInt32 {
			bad, badLocal = true, l
		}
		use(l)
	}); err != nil {
		return fmt.Errorf("plan: planEval does not run %T (%s)", s, pl.at(s))
	}
	if bad {
		return fmt.Errorf("plan: local %d out of range (%s)", badLocal, pl.at(s))
	}
	strIndex := func(o ir.Operand) error {
		if v, ok := o.Value.(ir.StringIndex); ok && (int(v) < 0 || int(v) >= len(pl.strings)) {
			return fmt.Errorf("plan: string constant %d out of range (%s)", v, pl.at(s))
		}
		if v, ok := o.Value.(ir.Local); ok && (v < 0 || v > math.MaxInt32) {
			return fmt.Errorf("plan: local %d out of range (%s)", v, pl.at(s))
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
	// emptySet is the value of every set MakeSetStmt makes until its first
	// SetAddStmt, which never adds to it (see the package comment).
	emptySet = ast.NewSet()
)

// planEval is one evaluation of a plan. eval reuses one (plan.evals) for
// the next evaluation: what it keeps is storage (stack, scanners, args),
// cleared before reuse; memo, cache and results are per evaluation.
type planEval struct {
	p        *plan
	ctx      context.Context
	stack    []*ast.Term // the frames of the calls in progress
	top      int
	args     []*ast.Term // a CallStmt's arguments, copied by the callee before it runs
	memo     []*ast.Term
	ret      *ast.Term // what the ReturnLocalStmt being unwound returns
	out      *ast.Term // a built-in's result
	outs     []*ast.Term
	iter     func(*ast.Term) error // sets out
	iterAll  func(*ast.Term) error // appends to outs (relations)
	cache    builtins.Cache
	scanners []*scanner // one per ScanStmt in progress over an object, innermost last
	depth    int        // scanners in use
	steps    int
	results  []*ast.Term
}

// eval runs the plan on one input document and returns its result set: an
// object per solution with the query's variables.
func (pl *plan) eval(ctx context.Context, input ast.Value) ([]*ast.Term, error) {
	x, _ := pl.evals.Get().(*planEval)
	if x == nil {
		x = &planEval{p: pl, stack: make([]*ast.Term, 0, 1024)}
		x.iter = x.setOut
		x.iterAll = x.addOut
	}
	x.ctx, x.memo, x.cache = ctx, make([]*ast.Term, len(pl.funcs)), builtins.Cache{}
	defer x.release()
	fr := x.push(pl.frame)
	fr[ir.Input] = ast.NewTerm(input)
	fr[ir.Data] = ast.NewTerm(ast.NewObject())
	for _, b := range pl.code {
		if _, err := x.block(fr, b); err != nil {
			return nil, err
		}
	}
	return x.results, nil
}

// release returns x to its plan's pool without the terms of its
// evaluation.
func (x *planEval) release() {
	clear(x.stack[:cap(x.stack)])
	clear(x.args[:cap(x.args)])
	clear(x.outs[:cap(x.outs)])
	for _, sc := range x.scanners {
		sc.fr = nil
	}
	x.stack, x.top, x.args, x.outs, x.depth = x.stack[:0], 0, x.args[:0], x.outs[:0], 0
	x.ctx, x.memo, x.cache, x.ret, x.out, x.steps, x.results = nil, nil, nil, nil, nil, 0, nil
	x.p.evals.Put(x)
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
func (x *planEval) block(fr []*ast.Term, b *code) (int, error) {
	for i := range b.stmts {
		n, err := x.stmt(fr, &b.stmts[i])
		if err != nil || n != next {
			return n, err
		}
	}
	return next, nil
}

// value is the value of o, nil when undefined.
func (x *planEval) value(fr []*ast.Term, o operand) *ast.Term {
	if o >= 0 {
		return fr[o]
	}
	return x.p.consts[^o]
}

// stmt runs o.s, whose operands are o.a and o.b (forOperands' order).
func (x *planEval) stmt(fr []*ast.Term, o *op) (int, error) {
	switch o.kind {
	case opCall:
		return x.callStmt(fr, o)
	case opDot:
		src, key := x.value(fr, o.a), x.value(fr, o.b)
		if src == nil || key == nil {
			return 0, nil
		}
		v := src.Get(key)
		if v == nil {
			return 0, nil
		}
		fr[o.local] = v // Target
	case opAssignVar:
		fr[o.local] = x.value(fr, o.a) // Target
	case opAssignVarOnce:
		v := x.value(fr, o.a)
		if v == nil {
			return 0, nil
		}
		if cur := fr[o.local]; cur != nil && !cur.Equal(v) { // Target
			return 0, x.fail(o.s, topdown.ConflictErr, "complete rules must not produce multiple outputs")
		}
		fr[o.local] = v
	case opResetLocal:
		fr[o.local] = nil // Target
	case opIsDefined:
		if fr[o.local] == nil { // Source
			return 0, nil
		}
	case opIsUndefined:
		if fr[o.local] != nil { // Source
			return 0, nil
		}
	case opNotEqual:
		a, b := x.value(fr, o.a), x.value(fr, o.b)
		if a == nil || b == nil || a.Equal(b) {
			return 0, nil
		}
	case opEqual:
		a, b := x.value(fr, o.a), x.value(fr, o.b)
		if a == nil || b == nil || !a.Equal(b) {
			return 0, nil
		}
	case opBlock:
		for _, b := range o.ext.blocks {
			n, err := x.block(fr, b)
			if err != nil || n == unwind {
				return n, err
			}
			if n >= 1 {
				return n - 1, nil
			}
		}
	case opScan:
		return x.scan(fr, o, o.s.(*ir.ScanStmt))
	case opNot:
		n, err := x.block(fr, o.ext.blocks[0])
		switch {
		case err != nil || n == unwind:
			return n, err
		case n == next: // the negated block held
			return 0, nil
		case n >= 1:
			return n - 1, nil
		}
	case opBreak:
		return int(o.s.(*ir.BreakStmt).Index), nil
	case opReturnLocal:
		x.ret = fr[o.local] // Source
		return unwind, nil
	case opMakeObject:
		fr[o.s.(*ir.MakeObjectStmt).Target] = ast.NewTerm(ast.NewObject())
	case opMakeArray:
		s := o.s.(*ir.MakeArrayStmt)
		fr[s.Target] = ast.NewTerm(ast.NewArray(make([]*ast.Term, 0, s.Capacity)...))
	case opMakeSet:
		fr[o.s.(*ir.MakeSetStmt).Target] = &ast.Term{Value: emptySet}
	case opMakeNull:
		fr[o.s.(*ir.MakeNullStmt).Target] = ast.NullTerm()
	case opMakeNumberInt:
		s := o.s.(*ir.MakeNumberIntStmt)
		fr[s.Target] = ast.IntNumberTerm(int(s.Value))
	case opMakeNumberRef:
		s := o.s.(*ir.MakeNumberRefStmt)
		fr[s.Target] = x.p.numbers[s.Index]
	case opAssignInt:
		s := o.s.(*ir.AssignIntStmt)
		fr[s.Target] = ast.IntNumberTerm(int(s.Value))
	case opObjectInsert:
		k, v := x.value(fr, o.a), x.value(fr, o.b)
		obj, ok := termObject(fr[o.s.(*ir.ObjectInsertStmt).Object])
		if k == nil || v == nil || !ok {
			return 0, nil
		}
		obj.Insert(k, v)
	case opObjectInsertOnce:
		k, v := x.value(fr, o.a), x.value(fr, o.b)
		obj, ok := termObject(fr[o.s.(*ir.ObjectInsertOnceStmt).Object])
		if k == nil || v == nil || !ok {
			return 0, nil
		}
		if cur := obj.Get(k); cur != nil && !cur.Equal(v) {
			return 0, x.fail(o.s, topdown.ConflictErr, "object keys must be unique")
		}
		obj.Insert(k, v)
	case opArrayAppend:
		v, t := x.value(fr, o.a), fr[o.s.(*ir.ArrayAppendStmt).Array]
		if v == nil || t == nil {
			return 0, nil
		}
		arr, ok := t.Value.(*ast.Array)
		if !ok {
			return 0, nil
		}
		t.Value = arr.Append(v)
	case opSetAdd:
		v, t := x.value(fr, o.a), fr[o.s.(*ir.SetAddStmt).Set]
		if v == nil || t == nil {
			return 0, nil
		}
		set, ok := t.Value.(ast.Set)
		switch {
		case !ok:
			return 0, nil
		case set == emptySet:
			t.Value = ast.NewSet(v)
		default:
			set.Add(v)
		}
	case opIsArray:
		v := x.value(fr, o.a)
		if v == nil {
			return 0, nil
		}
		if _, ok := v.Value.(*ast.Array); !ok {
			return 0, nil
		}
	case opIsObject:
		if _, ok := termObject(x.value(fr, o.a)); !ok {
			return 0, nil
		}
	case opIsSet:
		v := x.value(fr, o.a)
		if v == nil {
			return 0, nil
		}
		if _, ok := v.Value.(ast.Set); !ok {
			return 0, nil
		}
	case opLen:
		v := x.value(fr, o.a)
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
		fr[o.s.(*ir.LenStmt).Target] = ast.IntNumberTerm(n)
	case opResultSetAdd:
		if v := fr[o.s.(*ir.ResultSetAddStmt).Value]; v != nil {
			x.results = append(x.results, v)
		}
	case opNop:
	default: // newPlan refused it
		return 0, fmt.Errorf("plan: %T", o.s)
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
func (x *planEval) scan(fr []*ast.Term, o *op, s *ir.ScanStmt) (int, error) {
	src := fr[s.Source]
	if src == nil {
		return next, nil
	}
	b := o.ext.blocks[0]
	switch c := src.Value.(type) {
	case *ast.Array:
		for i := range c.Len() {
			if n, more, err := x.element(fr, s, b, ast.IntNumberTerm(i), c.Elem(i)); !more {
				return n, err
			}
		}
	case ast.Object:
		return x.scanObject(fr, s, b, c)
	case ast.Set:
		for _, e := range c.Slice() { // sorted, as its Until iterates
			if n, more, err := x.element(fr, s, b, e, e); !more {
				return n, err
			}
		}
	}
	return next, nil
}

// element runs a ScanStmt's block for one element: more reports whether
// the scan goes on, and if not, n and err are what the scan returns.
func (x *planEval) element(fr []*ast.Term, s *ir.ScanStmt, b *code, k, v *ast.Term) (n int, more bool, err error) {
	if err := x.tick(); err != nil {
		return 0, false, err
	}
	fr[s.Key], fr[s.Value] = k, v
	n, err = x.block(fr, b)
	switch {
	case err != nil:
		return 0, false, err
	case n == unwind:
		return unwind, false, nil
	case n == 1:
		return next, false, nil
	case n >= 2:
		return n - 2, false, nil
	}
	return next, true, nil
}

// scanner is the state of a ScanStmt over an object, whose elements only
// the object's Until visits; its each is bound once, so that a scan
// allocates no closure.
type scanner struct {
	x    *planEval
	fr   []*ast.Term
	s    *ir.ScanStmt
	b    *code
	n    int
	err  error
	each func(k, v *ast.Term) bool
}

func (sc *scanner) element(k, v *ast.Term) bool {
	n, more, err := sc.x.element(sc.fr, sc.s, sc.b, k, v)
	sc.n, sc.err = n, err
	return !more
}

// scanObject is scan over an object, in the order of its Until (sorted by
// key, as topdown iterates it).
func (x *planEval) scanObject(fr []*ast.Term, s *ir.ScanStmt, b *code, obj ast.Object) (int, error) {
	if x.depth == len(x.scanners) {
		sc := &scanner{x: x}
		sc.each = sc.element
		x.scanners = append(x.scanners, sc)
	}
	sc := x.scanners[x.depth]
	x.depth++
	sc.fr, sc.s, sc.b, sc.n, sc.err = fr, s, b, next, nil
	obj.Until(sc.each)
	n, err := sc.n, sc.err
	sc.fr = nil
	x.depth--
	return n, err
}

// tick checks for cancellation now and then.
func (x *planEval) tick() error {
	x.steps++
	if x.steps&1023 == 0 {
		return x.ctx.Err()
	}
	return nil
}

// callStmt runs a CallStmt, whose callee and arguments compile resolved
// (o.ext).
func (x *planEval) callStmt(fr []*ast.Term, o *op) (int, error) {
	c := o.ext.callee
	if c == nil {
		s := o.s.(*ir.CallStmt)
		return 0, fmt.Errorf("plan: no function %s (%s)", s.Func, x.p.at(s))
	}
	args := x.args[:0]
	for _, a := range o.ext.args {
		v := x.value(fr, a)
		if v == nil {
			return 0, nil
		}
		args = append(args, v)
	}
	x.args = args
	var v *ast.Term
	var err error
	if c.fn != nil {
		v, err = x.call(c.fn.prepared(x.p), args)
	} else {
		v, err = x.builtin(o.s, c, args)
	}
	if err != nil {
		return 0, err
	}
	if v == nil {
		return 0, nil
	}
	fr[o.local] = v // s.Result
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
	fr := x.push(f.frame)
	for i, p := range f.fn.Params {
		fr[p] = args[i]
	}
	var ret *ast.Term
	for _, b := range f.code {
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
func (x *planEval) builtin(s ir.Stmt, c *callee, args []*ast.Term) (*ast.Term, error) {
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

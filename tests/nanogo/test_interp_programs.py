"""nanoGo in-process: programs whose expected output was recorded from real Go 1.19 (GOMAXPROCS=1)."""

from __future__ import annotations

import pytest

from tinyrag_desktop.tools.nanogo.interp import run_inprocess

# name -> (source, stdout real Go printed)
CASES = {
    'int_wrap_and_division': (
        'var a int8 = 127\na++\nvar b uint8 = 0\nb--\nx := -7\nbig := 1 << 62\nfmt.Println(a, b, x/2, x%3, 7/-2, 7%-2, big*2, big*4, ^0)\nvar u uint32 = 1 << 31\nfmt.Println(u<<1, u*2+5, int32(u-1)+1)\n',
        '-128 255 -3 -1 -3 1 -9223372036854775808 0 -1\n0 5 -2147483648\n',
    ),
    'untyped_consts_exact': (
        "const c = 0.1 + 0.2\nf := 0.1\ng := 0.2\nfmt.Println(c == 0.3, f+g == 0.3, f+g, 1e100, 3/2, 3.0/2, 'a'+1, string(rune('a'+1)))\n",
        'true false 0.30000000000000004 1e+100 1 1.5 98 b\n',
    ),
    'floats_print': (
        'fmt.Println(1.0, 2.5, 1e6, 123456789.0, 1e-5, 0.000123, float32(0.1), 100000.0, -0.0)\nfmt.Printf("%v %g %e %.2f %8.3f|%-8.2f|%G\\n", 3.14159, 2.0, 123456.789, 2.345, 3.14159, 1.5, 1e-10)\n',
        '1 2.5 1e+06 1.23456789e+08 1e-05 0.000123 0.1 100000 0\n3.14159 2 1.234568e+05 2.35    3.142|1.50    |1E-10\n',
    ),
    'strings_runes_bytes': (
        's := "héllo, 世界"\nfmt.Println(len(s), s[1], s[0:2], []byte("hi"), []rune("hé"))\nfor i, r := range "aé世" {\n\tfmt.Print(i, ":", string(r), " ")\n}\nfmt.Println()\nfmt.Println(strings.ToUpper(s), strings.Split("a,b,c", ","), strings.Fields(" a  b "), strings.Repeat("ab", 3))\nfmt.Printf("%q %x %X %c %U\\n", s, "hi", []byte("hi"), \'G\', 0x1F600)\n',
        '14 195 h\udcc3 [104 105] [104 233]\n0:a 1:é 3:世 \nHÉLLO, 世界 [a b c] [a b] ababab\n"héllo, 世界" 6869 6869 G U+1F600\n',
    ),
    'slices_sharing_and_growth': (
        'var s []int\nfor i := 0; i < 10; i++ {\n\ts = append(s, i)\n\tfmt.Print(cap(s), " ")\n}\nfmt.Println()\na := []int{1, 2, 3, 4, 5}\nb := a[1:3]\nb = append(b, 99)\nfmt.Println(a, b, len(b), cap(b))\nc := make([]int, 2, 10)\ncopy(c, a)\nfmt.Println(c, s == nil, a[:0] == nil)\ngrid := make([][]string, 2)\nfor i := range grid {\n\tgrid[i] = []string{"x", "y"}\n}\ngrid[1][0] = "z"\nfmt.Println(grid, len(grid[0]))\n',
        '1 2 4 4 8 8 8 8 16 16 \n[1 2 3 99 5] [2 3 99] 3 4\n[1 2] false false\n[[x y] [z y]] 2\n',
    ),
    'maps_and_structs': (
        'type Point struct{ X, Y int }\nm := map[string]int{"b": 2, "a": 1}\nm["c"] = 3\ndelete(m, "b")\nv, ok := m["zz"]\nfmt.Println(m, len(m), v, ok)\npts := map[Point]string{{1, 2}: "a", {0, 5}: "b"}\nfmt.Println(pts, pts[Point{1, 2}])\np := Point{1, 2}\nq := p\nq.X = 10\npp := &p\npp.Y = 20\nfmt.Printf("%v %+v %#v %T %v\\n", p, q, p, pp, pp)\n',
        'map[a:1 c:3] 2 0 false\nmap[{0 5}:b {1 2}:a] a\n{1 20} {X:10 Y:2} main.Point{X:1, Y:20} *main.Point &{1 20}\n',
    ),
    'methods_interfaces': (
        'type Shape interface{ Area() float64 }\ntype Rect struct{ W, H float64 }\nfunc (r Rect) Area() float64 { return r.W * r.H }\ntype Circle struct{ R float64 }\nfunc (c *Circle) Area() float64 { return 3 * c.R * c.R }\nfunc (r Rect) String() string { return fmt.Sprintf("Rect(%gx%g)", r.W, r.H) }\nshapes := []Shape{Rect{2, 3}, &Circle{1}}\nfor _, s := range shapes {\n\tswitch v := s.(type) {\n\tcase Rect:\n\t\tfmt.Println("rect", v, v.Area())\n\tcase *Circle:\n\t\tfmt.Println("circle", v.R, v.Area())\n\t}\n}\nvar sh Shape\nfmt.Println(sh == nil, shapes[0])\n',
        'rect Rect(2x3) 6\ncircle 1 3\ntrue Rect(2x3)\n',
    ),
    'closures_defer_recover': (
        'func counter() func() int {\n\tn := 0\n\treturn func() int { n++; return n }\n}\nfunc safeDiv(a, b int) (q int, err error) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\terr = fmt.Errorf("recovered: %v", r)\n\t\t}\n\t}()\n\tq = a / b\n\treturn\n}\nc := counter()\nc()\nfmt.Println(c(), c())\nvar fs []func()\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, func() { fmt.Print(i, " ") })\n}\nfor _, f := range fs {\n\tf()\n}\nfmt.Println()\nfor i := 0; i < 3; i++ {\n\tdefer fmt.Println("defer", i)\n}\nfmt.Println(safeDiv(7, 2))\nfmt.Println(safeDiv(1, 0))\n',
        '2 3\n3 3 3 \n3 <nil>\n0 recovered: runtime error: integer divide by zero\ndefer 2\ndefer 1\ndefer 0\n',
    ),
    'errors_wrapping': (
        'package main\n\nimport (\n\t"errors"\n\t"fmt"\n)\n\nvar ErrNotFound = errors.New("not found")\ntype MyErr struct{ Code int }\nfunc (e *MyErr) Error() string { return fmt.Sprintf("code %d", e.Code) }\nfunc find(k string) error {\n\tif k == "x" {\n\t\treturn fmt.Errorf("find %q: %w", k, ErrNotFound)\n\t}\n\treturn &MyErr{404}\n}\nfunc main() {\ne1 := find("x")\nfmt.Println(e1, errors.Is(e1, ErrNotFound), errors.Unwrap(e1) == ErrNotFound)\nvar me *MyErr\ne2 := find("y")\nfmt.Println(errors.As(e2, &me), me.Code, e2)\n}\n',
        'find "x": not found true true\ntrue 404 code 404\n',
    ),
    'generics_funcs': (
        'type Number interface{ ~int | ~float64 }\nfunc Sum[T Number](xs []T) T {\n\tvar s T\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\nfunc Map[T, U any](xs []T, f func(T) U) []U {\n\tout := make([]U, 0, len(xs))\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\ntype Stack[T any] struct{ items []T }\nfunc (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }\nfunc (s *Stack[T]) Pop() T {\n\tv := s.items[len(s.items)-1]\n\ts.items = s.items[:len(s.items)-1]\n\treturn v\n}\nfmt.Println(Sum([]int{1, 2, 3}), Sum([]float64{1.5, 2}))\nfmt.Println(Map([]int{1, 2}, func(i int) string { return strconv.Itoa(i * 10) }))\nst := &Stack[string]{}\nst.Push("a")\nst.Push("b")\nfmt.Println(st.Pop(), len(st.items))\n',
        '6 3.5\n[10 20]\nb 1\n',
    ),
    'goroutines_channels': (
        'results := make(chan int, 10)\nvar wg sync.WaitGroup\nfor i := 1; i <= 5; i++ {\n\twg.Add(1)\n\tgo func(n int) {\n\t\tdefer wg.Done()\n\t\tresults <- n * n\n\t}(i)\n}\nwg.Wait()\nclose(results)\nsum := 0\nfor r := range results {\n\tsum += r\n}\nfmt.Println("sum", sum)\nch := make(chan string)\ndone := make(chan bool)\ngo func() {\n\tfor msg := range ch {\n\t\tfmt.Println("got", msg)\n\t}\n\tdone <- true\n}()\nch <- "a"\nch <- "b"\nclose(ch)\n<-done\nvar mu sync.Mutex\ncount := 0\nvar wg2 sync.WaitGroup\nfor i := 0; i < 100; i++ {\n\twg2.Add(1)\n\tgo func() {\n\t\tdefer wg2.Done()\n\t\tmu.Lock()\n\t\tcount++\n\t\tmu.Unlock()\n\t}()\n}\nwg2.Wait()\nfmt.Println(count)\nselect {\ncase v := <-make(chan int):\n\tfmt.Println(v)\ndefault:\n\tfmt.Println("no value")\n}\n',
        'sum 55\ngot a\ngot b\n100\nno value\n',
    ),
    'sort_strconv_math': (
        'people := []struct {\n\tName string\n\tAge  int\n}{{"Al", 30}, {"Bo", 25}, {"Cy", 30}, {"Di", 20}}\nsort.Slice(people, func(i, j int) bool { return people[i].Age < people[j].Age })\nfmt.Println(people)\nxs := []string{"pear", "Apple", "fig"}\nsort.Strings(xs)\nfmt.Println(xs)\nn, err := strconv.Atoi("12a")\nfmt.Println(n, err)\nf, _ := strconv.ParseFloat("2.5", 64)\nfmt.Println(f, strconv.Quote("a\\tb"), strconv.FormatInt(255, 16))\nfmt.Println(math.Sqrt(2), math.Floor(-2.5), math.MaxInt64, math.Inf(1), math.Pi)\nfmt.Printf("%.3f %v\\n", math.Pow(2, 0.5), math.NaN())\n',
        '[{Di 20} {Bo 25} {Al 30} {Cy 30}]\n[Apple fig pear]\n0 strconv.Atoi: parsing "12a": invalid syntax\n2.5 "a\\tb" ff\n1.4142135623730951 -3 9223372036854775807 +Inf 3.141592653589793\n1.414 NaN\n',
    ),
    'switch_labels_fallthrough': (
        'for i := 0; i < 6; i++ {\n\tswitch {\n\tcase i == 1:\n\t\tfmt.Print("one ")\n\t\tfallthrough\n\tcase i == 2:\n\t\tfmt.Print("le-two ")\n\tcase i > 3:\n\t\tfmt.Print("big ")\n\t\tif i == 5 {\n\t\t\tbreak\n\t\t}\n\t\tfmt.Print("four ")\n\tdefault:\n\t\tfmt.Print("other ")\n\t}\n}\nfmt.Println()\nouter:\nfor i := 0; i < 3; i++ {\n\tfor j := 0; j < 3; j++ {\n\t\tif j == 2 {\n\t\t\tcontinue outer\n\t\t}\n\t\tif i == 2 {\n\t\t\tbreak outer\n\t\t}\n\t\tfmt.Print(i, j, " ")\n\t}\n}\nfmt.Println()\n',
        'other one le-two le-two other big four big \n0 0 0 1 1 0 1 1 \n',
    ),
    'goroutine_order_runnext': (
        'package main\n\nimport (\n\t"fmt"\n\t"sync"\n)\n\nfunc worker(id int, wg *sync.WaitGroup) {\n\tdefer wg.Done()\n\tfmt.Println("worker", id, "start")\n\tfmt.Println("worker", id, "done")\n}\n\nfunc main() {\n\tvar wg sync.WaitGroup\n\tfor i := 1; i <= 4; i++ {\n\t\twg.Add(1)\n\t\tgo worker(i, &wg)\n\t}\n\twg.Wait()\n\tch := make(chan int)\n\tgo func() {\n\t\tfor i := 0; i < 3; i++ {\n\t\t\tch <- i\n\t\t\tfmt.Println("sent", i)\n\t\t}\n\t\tclose(ch)\n\t}()\n\tfor v := range ch {\n\t\tfmt.Println("recv", v)\n\t}\n}\n',
        'worker 4 start\nworker 4 done\nworker 1 start\nworker 1 done\nworker 2 start\nworker 2 done\nworker 3 start\nworker 3 done\nsent 0\nrecv 0\nrecv 1\nsent 1\nsent 2\nrecv 2\n',
    ),
    'generics_core_types': (
        'type Number interface {\n\t~int | ~int32 | ~int64 | ~float32 | ~float64\n}\nfunc SumMap[K comparable, V Number](m map[K]V) V {\n\tvar s V\n\tfor _, v := range m {\n\t\ts += v\n\t}\n\treturn s\n}\ntype Pair[A any, B any] struct {\n\tFirst  A\n\tSecond B\n}\nfunc MakePair[A, B any](a A, b B) Pair[A, B] { return Pair[A, B]{a, b} }\nfunc (p Pair[A, B]) Swap() Pair[B, A] { return Pair[B, A]{p.Second, p.First} }\ntype List[T any] struct {\n\thead *node[T]\n\tsize int\n}\ntype node[T any] struct {\n\tval  T\n\tnext *node[T]\n}\nfunc (l *List[T]) Push(v T) {\n\tl.head = &node[T]{v, l.head}\n\tl.size++\n}\nfunc (l *List[T]) Each(f func(T)) {\n\tfor n := l.head; n != nil; n = n.next {\n\t\tf(n.val)\n\t}\n}\nfunc Contains[T comparable](xs []T, x T) bool {\n\tfor _, v := range xs {\n\t\tif v == x {\n\t\t\treturn true\n\t\t}\n\t}\n\treturn false\n}\nfunc MapKeys[M ~map[K]V, K comparable, V any](m M) int { return len(m) }\nfmt.Println(SumMap(map[string]int{"a": 1, "b": 2}), SumMap(map[int]float64{1: 1.5, 2: 2.5}))\np := MakePair("x", 42)\nfmt.Printf("%v %+v %T\\n", p, p.Swap(), p)\nvar l List[string]\nl.Push("a")\nl.Push("b")\nl.Each(func(s string) { fmt.Print(s, " ") })\nfmt.Println(l.size)\nfmt.Println(Contains([]string{"a", "b"}, "b"), Contains([]int{1, 2}, 5))\ntype MyInt int\nfmt.Println(SumMap(map[string]MyInt{"z": 5}), MapKeys(map[int]bool{1: true}))\nvar zero Pair[int, []string]\nfmt.Println(zero.Second == nil, zero)\n',
        '3 4\n{x 42} {First:42 Second:x} main.Pair[string,int]\nb a 2\ntrue false\n5 1\ntrue {0 []}\n',
    ),
    'funcs_methods_values': (
        'type HandlerFunc func(string) string\nfunc (f HandlerFunc) Handle(s string) string { return f(s) }\ntype Handler interface{ Handle(string) string }\ntype Middleware func(Handler) Handler\nfunc logging(h Handler) Handler {\n\treturn HandlerFunc(func(s string) string { return "[log]" + h.Handle(s) })\n}\nvar h Handler = HandlerFunc(strings.ToUpper)\nh = logging(h)\nfmt.Println(h.Handle("hi"))\ntype Op struct {\n\tName string\n\tFn   func(float64, float64) float64\n}\nops := []Op{{"add", func(a, b float64) float64 { return a + b }}, {"pow", math.Pow}}\nfor _, op := range ops {\n\tfmt.Printf("%s(2,3)=%g\\n", op.Name, op.Fn(2, 3))\n}\ntype Point struct{ X, Y int }\nfunc (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }\nfunc (p *Point) Scale(k int)      { p.X *= k; p.Y *= k }\nadd := Point.Add\nscale := (*Point).Scale\np := Point{1, 2}\nfmt.Println(add(p, Point{3, 4}))\nscale(&p, 10)\nfmt.Println(p)\npts := [3]Point{{1, 1}, {2, 2}, {3, 3}}\npts[1].X = 20\nfor i := range pts {\n\tpts[i].Scale(2)\n}\nfmt.Println(pts)\ngrid := [][]Point{{{0, 0}}, {{1, 1}, {2, 2}}}\ngrid[1][0].Y = 9\nfmt.Println(grid, len(grid[1]))\na1 := struct{ A, B int }{1, 2}\na2 := struct{ A, B int }{1, 2}\nfmt.Println(a1 == a2)\ncounter := func() func() int {\n\tc := 0\n\treturn func() int {\n\t\tc++\n\t\treturn c\n\t}\n}\nc1, c2 := counter(), counter()\nc1()\nc1()\nfmt.Println(c1(), c2())\nfuncs := map[string]func(int) int{\n\t"double": func(x int) int { return x * 2 },\n\t"square": func(x int) int { return x * x },\n}\nfmt.Println(funcs["double"](5), funcs["square"](5), len(funcs))\nif f, ok := funcs["cube"]; !ok {\n\tfmt.Println("no cube", f == nil)\n}\n',
        '[log]HI\nadd(2,3)=5\npow(2,3)=8\n{4 6}\n{10 20}\n[{2 2} {40 4} {6 6}]\n[[{0 0}] [{1 9} {2 2}]] 2\ntrue\n3 1\n10 25 2\nno cube true\n',
    ),
    'package_var_init_order': (
        'package main\n\nimport "fmt"\n\nvar total = compute() + offset\nvar offset = base * 2\nvar base = 10\n\nfunc compute() int { return base + 1 }\n\nvar (\n\tnames = []string{"a", "b"}\n\tcount = len(names)\n)\n\nfunc main() {\n\tfmt.Println(total, offset, base, count)\n}\n',
        '31 20 10 2\n',
    ),
    'programs_bank': (
        'package main\n\nimport (\n\t"errors"\n\t"fmt"\n\t"sort"\n\t"strings"\n)\n\ntype Account struct {\n\tID      int\n\tOwner   string\n\tBalance float64\n\tHistory []Transaction\n}\n\ntype Transaction struct {\n\tKind   string\n\tAmount float64\n}\n\nvar ErrInsufficient = errors.New("insufficient funds")\n\ntype Bank struct {\n\taccounts map[int]*Account\n\tnextID   int\n}\n\nfunc NewBank() *Bank { return &Bank{accounts: make(map[int]*Account), nextID: 1} }\n\nfunc (b *Bank) Open(owner string, initial float64) *Account {\n\ta := &Account{ID: b.nextID, Owner: owner, Balance: initial}\n\tb.accounts[a.ID] = a\n\tb.nextID++\n\treturn a\n}\n\nfunc (a *Account) Withdraw(amt float64) error {\n\tif amt > a.Balance {\n\t\treturn fmt.Errorf("withdraw %.2f from %s: %w", amt, a.Owner, ErrInsufficient)\n\t}\n\ta.Balance -= amt\n\ta.History = append(a.History, Transaction{"withdraw", amt})\n\treturn nil\n}\n\nfunc (a *Account) Deposit(amt float64) {\n\ta.Balance += amt\n\ta.History = append(a.History, Transaction{"deposit", amt})\n}\n\nfunc (b *Bank) Transfer(from, to int, amt float64) error {\n\tsrc, ok := b.accounts[from]\n\tif !ok {\n\t\treturn fmt.Errorf("account %d not found", from)\n\t}\n\tdst, ok := b.accounts[to]\n\tif !ok {\n\t\treturn fmt.Errorf("account %d not found", to)\n\t}\n\tif err := src.Withdraw(amt); err != nil {\n\t\treturn err\n\t}\n\tdst.Deposit(amt)\n\treturn nil\n}\n\nfunc (a Account) String() string {\n\treturn fmt.Sprintf("#%d %-6s $%9.2f (%d tx)", a.ID, a.Owner, a.Balance, len(a.History))\n}\n\nfunc main() {\n\tbank := NewBank()\n\talice := bank.Open("Alice", 100)\n\tbob := bank.Open("Bob", 50)\n\tfmt.Println(bank.Transfer(1, 2, 30))\n\terr := bank.Transfer(2, 1, 500)\n\tfmt.Println(err, errors.Is(err, ErrInsufficient))\n\tfmt.Println(bank.Transfer(1, 9, 1))\n\tids := make([]int, 0, len(bank.accounts))\n\tfor id := range bank.accounts {\n\t\tids = append(ids, id)\n\t}\n\tsort.Ints(ids)\n\tfor _, id := range ids {\n\t\tfmt.Println(bank.accounts[id])\n\t}\n\tfmt.Println(*alice, bob.History)\n\tfmt.Println(strings.Repeat("=", 20))\n\tfmt.Printf("%-10s|%10s|\\n", "Name", "Balance")\n\tfmt.Printf("%-10s|%10.2f|\\n", alice.Owner, alice.Balance)\n\tfmt.Printf("%-10s|%10.2f|\\n", bob.Owner, bob.Balance)\n}\n',
        '<nil>\nwithdraw 500.00 from Bob: insufficient funds true\naccount 9 not found\n#1 Alice  $    70.00 (1 tx)\n#2 Bob    $    80.00 (1 tx)\n#1 Alice  $    70.00 (1 tx) [{deposit 30}]\n====================\nName      |   Balance|\nAlice     |     70.00|\nBob       |     80.00|\n',
    ),
    'programs_algorithms': (
        'func toRoman(n int) string {\n\tvals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}\n\tsyms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}\n\tvar sb strings.Builder\n\tfor i, v := range vals {\n\t\tfor n >= v {\n\t\t\tsb.WriteString(syms[i])\n\t\t\tn -= v\n\t\t}\n\t}\n\treturn sb.String()\n}\nfunc quickSort(a []int) []int {\n\tif len(a) < 2 {\n\t\treturn a\n\t}\n\tpivot := a[len(a)/2]\n\tvar less, equal, greater []int\n\tfor _, v := range a {\n\t\tswitch {\n\t\tcase v < pivot:\n\t\t\tless = append(less, v)\n\t\tcase v == pivot:\n\t\t\tequal = append(equal, v)\n\t\tdefault:\n\t\t\tgreater = append(greater, v)\n\t\t}\n\t}\n\treturn append(append(quickSort(less), equal...), quickSort(greater)...)\n}\nfunc mergeSort(a []int) []int {\n\tif len(a) <= 1 {\n\t\treturn a\n\t}\n\tmid := len(a) / 2\n\tl, r := mergeSort(a[:mid]), mergeSort(a[mid:])\n\tout := make([]int, 0, len(a))\n\ti, j := 0, 0\n\tfor i < len(l) && j < len(r) {\n\t\tif l[i] <= r[j] {\n\t\t\tout = append(out, l[i])\n\t\t\ti++\n\t\t} else {\n\t\t\tout = append(out, r[j])\n\t\t\tj++\n\t\t}\n\t}\n\tout = append(out, l[i:]...)\n\treturn append(out, r[j:]...)\n}\nfunc binarySearch(a []int, x int) int {\n\tlo, hi := 0, len(a)-1\n\tfor lo <= hi {\n\t\tmid := lo + (hi-lo)/2\n\t\tswitch {\n\t\tcase a[mid] == x:\n\t\t\treturn mid\n\t\tcase a[mid] < x:\n\t\t\tlo = mid + 1\n\t\tdefault:\n\t\t\thi = mid - 1\n\t\t}\n\t}\n\treturn -1\n}\nfor _, n := range []int{1994, 2024, 3999, 4} {\n\tfmt.Printf("%d=%s ", n, toRoman(n))\n}\nfmt.Println()\ndata := []int{38, 27, 43, 3, 9, 82, 10, 3}\nfmt.Println(quickSort(data), mergeSort(data), data)\nsorted := mergeSort(data)\nfmt.Println(binarySearch(sorted, 43), binarySearch(sorted, 5))\nbubble := append([]int{}, data...)\nfor i := 0; i < len(bubble); i++ {\n\tfor j := 0; j < len(bubble)-1-i; j++ {\n\t\tif bubble[j] > bubble[j+1] {\n\t\t\tbubble[j], bubble[j+1] = bubble[j+1], bubble[j]\n\t\t}\n\t}\n}\nfmt.Println(bubble)\nanagrams := map[string][]string{}\nfor _, w := range []string{"eat", "tea", "tan", "ate", "nat", "bat"} {\n\tr := []rune(w)\n\tsort.Slice(r, func(i, j int) bool { return r[i] < r[j] })\n\tkey := string(r)\n\tanagrams[key] = append(anagrams[key], w)\n}\nfmt.Println(anagrams, len(anagrams))\n',
        '1994=MCMXCIV 2024=MMXXIV 3999=MMMCMXCIX 4=IV \n[3 3 9 10 27 38 43 82] [3 3 9 10 27 38 43 82] [38 27 43 3 9 82 10 3]\n6 -1\n[3 3 9 10 27 38 43 82]\nmap[abt:[bat] aet:[eat tea ate] ant:[tan nat]] 3\n',
    ),
    'control_goto': (
        'n := 0\nretry:\nn++\nif n < 3 {\n\tgoto retry\n}\nfmt.Println("n =", n)\nfor i := 0; i < 3; i++ {\n\tif i == 1 {\n\t\tgoto next\n\t}\n\tfmt.Println("i", i)\nnext:\n}\n',
        'n = 3\ni 0\ni 2\n',
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_real_go(name):
    source, want = CASES[name]
    got, status, err = run_inprocess(source)
    assert (status, err) == ("ok", "")
    assert got == want

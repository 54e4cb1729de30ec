"""nanoGo in-process: programs whose expected output was recorded from real Go 1.19."""

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
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_real_go(name):
    source, want = CASES[name]
    got, status, err = run_inprocess(source)
    assert (status, err) == ("ok", "")
    assert got == want

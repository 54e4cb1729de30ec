package main

import (
	"fmt"
	"strings"
)

type Tree struct {
	Left, Right *Tree
	Val         int
}

func (t *Tree) Insert(v int) *Tree {
	if t == nil {
		return &Tree{Val: v}
	}
	if v < t.Val {
		t.Left = t.Left.Insert(v)
	} else {
		t.Right = t.Right.Insert(v)
	}
	return t
}

func (t *Tree) InOrder(visit func(int)) {
	if t == nil {
		return
	}
	t.Left.InOrder(visit)
	visit(t.Val)
	t.Right.InOrder(visit)
}

func (t *Tree) Height() int {
	if t == nil {
		return 0
	}
	l, r := t.Left.Height(), t.Right.Height()
	if l > r {
		return l + 1
	}
	return r + 1
}

func (t *Tree) Print(depth int, sb *strings.Builder) {
	if t == nil {
		return
	}
	t.Right.Print(depth+1, sb)
	sb.WriteString(strings.Repeat("    ", depth) + fmt.Sprint(t.Val) + "\n")
	t.Left.Print(depth+1, sb)
}

func main() {
	var root *Tree
	for _, v := range []int{50, 30, 70, 20, 40, 60, 80, 35} {
		root = root.Insert(v)
	}
	var vals []int
	root.InOrder(func(v int) { vals = append(vals, v) })
	fmt.Println(vals, "height", root.Height())
	var sb strings.Builder
	root.Print(0, &sb)
	fmt.Print(sb.String())
}

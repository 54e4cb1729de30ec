package main

import (
	"fmt"
	"strings"
)

type Grid [][]bool

func parse(rows ...string) Grid {
	g := make(Grid, len(rows))
	for i, r := range rows {
		g[i] = make([]bool, len(r))
		for j, ch := range r {
			g[i][j] = ch == '#'
		}
	}
	return g
}

func (g Grid) neighbours(r, c int) int {
	n := 0
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if dr == 0 && dc == 0 {
				continue
			}
			rr, cc := r+dr, c+dc
			if rr >= 0 && rr < len(g) && cc >= 0 && cc < len(g[rr]) && g[rr][cc] {
				n++
			}
		}
	}
	return n
}

func (g Grid) Step() Grid {
	next := make(Grid, len(g))
	for r := range g {
		next[r] = make([]bool, len(g[r]))
		for c := range g[r] {
			n := g.neighbours(r, c)
			next[r][c] = n == 3 || (g[r][c] && n == 2)
		}
	}
	return next
}

func (g Grid) String() string {
	var sb strings.Builder
	for _, row := range g {
		for _, alive := range row {
			if alive {
				sb.WriteByte('#')
			} else {
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func main() {
	g := parse(".....", "..#..", "...#.", ".###.", ".....", ".....")
	for gen := 0; gen < 3; gen++ {
		fmt.Printf("gen %d:\n%v", gen, g)
		g = g.Step()
	}
}

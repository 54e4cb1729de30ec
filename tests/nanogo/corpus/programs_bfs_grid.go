package main

import "fmt"

type point struct{ r, c int }

func main() {
	grid := []string{
		"S.#.....",
		".##.###.",
		"....#...",
		"#.#...#E",
	}
	var start, end point
	for r, row := range grid {
		for c, ch := range row {
			if ch == 'S' {
				start = point{r, c}
			} else if ch == 'E' {
				end = point{r, c}
			}
		}
	}
	dist := map[point]int{start: 0}
	queue := []point{start}
	dirs := []point{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == end {
			break
		}
		for _, d := range dirs {
			n := point{p.r + d.r, p.c + d.c}
			if n.r < 0 || n.r >= len(grid) || n.c < 0 || n.c >= len(grid[0]) || grid[n.r][n.c] == '#' {
				continue
			}
			if _, seen := dist[n]; !seen {
				dist[n] = dist[p] + 1
				queue = append(queue, n)
			}
		}
	}
	fmt.Println("shortest path:", dist[end])
	fmt.Println(start, end)
}

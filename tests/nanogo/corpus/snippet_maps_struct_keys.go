type Point struct{ X, Y int }
visited := map[Point]bool{}
visited[Point{1, 2}] = true
visited[Point{0, 0}] = true
fmt.Println(visited[Point{1, 2}], visited[Point{2, 1}])
fmt.Println(visited)

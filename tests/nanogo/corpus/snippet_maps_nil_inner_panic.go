graph := map[string]map[string]int{}
graph["a"] = map[string]int{"b": 1}
fmt.Println(graph["a"]["b"], graph["x"]["y"])
graph["x"]["y"] = 2

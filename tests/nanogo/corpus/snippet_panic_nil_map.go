var m map[string]int
fmt.Println("len:", len(m))
m["key"] = 1

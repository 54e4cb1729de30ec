func safe(f func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println("recovered:", r)
		}
	}()
	f()
}

safe(func() { panic("first") })
var m map[string][]int
m["x"] = append(m["x"], 1)

data := []string{"a", "b", "c"}
n := 5
fmt.Println(data[1:n])

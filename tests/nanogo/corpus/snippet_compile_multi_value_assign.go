parts := strings.Split("a,b", ",")
n := strconv.Atoi("5")
fmt.Println(parts, n)

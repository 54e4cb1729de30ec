var count int

func inc() { count++ }

inc()
fmt.Println(count)

total := 10
count := 4
fmt.Println("integer division:", total/count)
fmt.Println("float division:", float64(total)/float64(count))
fmt.Println("remainder:", total%count)
fmt.Println(-10/count, -10%count, 10%-count)
avg := total / count * 1.0
fmt.Println(avg)

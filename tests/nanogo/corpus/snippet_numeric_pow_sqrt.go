x := 2.0
fmt.Println(math.Pow(x, 8), math.Sqrt(x))
fmt.Printf("%.3f\n", math.Pow(1.05, 10))
hyp := math.Sqrt(3*3 + 4*4)
fmt.Println(hyp)
fmt.Println(math.Floor(7.8), math.Ceil(7.2), math.Round(7.5), math.Abs(-3))
fmt.Println(int(math.Pow(2, 31)), math.MaxInt64)

const rate = 0.07
hours := 37
pay := float64(hours) * 15.5 * (1 + rate)
fmt.Printf("%.2f\n", pay)
fmt.Println(hours / 2 * 2, hours * 2 / 4, float64(hours) / 4)
const big = 1 << 40
fmt.Println(big / 1024, big % 1000)
var f float32 = big
fmt.Println(f)

x := 1
// %%
y := x +
// %%
fmt.Println("never")

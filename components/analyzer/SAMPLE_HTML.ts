/** A small page that shows every kind of link, for "Load an example". */
export const SAMPLE_HTML = `<!doctype html>
<html lang="en">
<head><title>Best trail running shoes (2026)</title></head>
<body>
  <nav><a href="/">Home</a> <a href="/reviews/">Reviews</a> <a href="https://blog.example.com/">Blog</a></nav>
  <article>
    <h1>Best trail running shoes</h1>
    <p>We tested 14 pairs. Our favourite is sold by <a href="https://shop.example.net/trail-x?ref=review" rel="sponsored nofollow">Trail X at ShopNet</a>,
    and the lab data comes from <a href="https://research.example.org/grip-study">an independent grip study</a>.</p>
    <p>Reader tip from the comments: <a href="https://forum.example.org/t/123" rel="ugc">this forum thread</a>.</p>
    <a href="https://partner.example.net/"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Partner logo"></a>
  </article>
  <footer><a href="mailto:editor@example.com">Contact the editor</a> <a href="#top">Back to top</a></footer>
</body>
</html>`;

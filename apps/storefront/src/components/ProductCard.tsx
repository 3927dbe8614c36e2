import type { Product } from '@cartwheel/sdk';
import { Link } from 'react-router';
import { Price } from './Price.tsx';
import { ProductImage } from './ProductImage.tsx';

export function ProductCard({ product }: { product: Product }) {
  const outOfStock = product.stock?.inStock === false || product.stock?.inventoryStatus === 'OUT_OF_STOCK';
  return (
    <article className="product-card">
      <Link to={`/product-page/${product.slug}`} className="product-card__link">
        <div className="product-card__media">
          {/* the name is the link's text: the picture adds nothing for a screen reader */}
          <ProductImage media={product.media?.mainMedia} alt="" />
          {product.ribbon ? <span className="ribbon">{product.ribbon}</span> : null}
          {outOfStock ? <span className="badge badge--muted">Out of stock</span> : null}
        </div>
        <h3 className="product-card__name">{product.name}</h3>
        {product.brand ? <p className="product-card__brand">{product.brand}</p> : null}
      </Link>
      <Price price={product.priceData ?? product.price} testId="product-price" />
    </article>
  );
}

export function ProductGrid({ products, label }: { products: Product[]; label: string }) {
  return (
    <ul className="product-grid" aria-label={label}>
      {products.map((product) => (
        <li key={product.id}>
          <ProductCard product={product} />
        </li>
      ))}
    </ul>
  );
}
